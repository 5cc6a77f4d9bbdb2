package dev.weft.csp.internal;

import dev.weft.csp.Alternative;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guard;

/**
 * How an {@link Alternative} talks to a guard. A channel end's state is under its channel's lock
 * ({@link #channel()}); the alternative holds the locks of all its guards (in {@link ChannelImpl#lockOrder},
 * so that alternatives never deadlock) while it checks them and registers with them, as Go's select does.
 */
public interface AltGuard extends Guard {
    /** The channel whose lock guards this guard's state, or null if it has none. */
    ChannelImpl<?> channel();

    /**
     * Whether the guard is ready now (a poisoned channel counts as ready). If readiness means a waiting
     * alternative on the other end, that alternative is claimed here (committed to this one) and added to
     * {@code wake}. Called under the lock.
     */
    boolean ready(Selection.Registration me, java.util.List<Fiber> wake);

    /** Queues {@code me} to be claimed when the guard becomes ready. Called under the lock. */
    void register(Selection.Registration me);

    /** Removes {@code me} if it is still queued. Called under the lock. */
    void unregister(Selection.Registration me);

    /**
     * Records that a party of {@code pool} (null: a plain thread) selects on this guard, for the deadlock
     * check ({@link Uses}). Called under the lock.
     */
    default void markUse(dev.weft.csp.runtime.WorkerPool pool) {
    }
}
