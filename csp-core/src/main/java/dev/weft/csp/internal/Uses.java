package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.runtime.WorkerPool;

/**
 * Who has used a primitive (a channel, a barrier), for the deadlock check. A primitive keeps one plain
 * field, {@code users}: the pool of the fibers that use it; {@link #UNUSED} while nobody has (a primitive
 * a plain thread made); or null once a plain thread (or a fiber of a second pool) has used it; null stays
 * null. Parties pass their pool, null for a plain thread, so a fast-path operation costs one comparison:
 * {@code if (p != users && users != null) users = Uses.after(users, p)}.
 *
 * <p>Creating a primitive is not a use, but it is remembered ({@code madeOutside}: a bit of a channel's
 * state word, a barrier's field, fixed at creation). A simulated pool moves its clock only if no plain
 * thread could still act on what its fibers wait on, and the thread that made a primitive may. The deadlock
 * check does not need it: a thread that still holds what it made keeps the fibers waiting on it reachable,
 * which the deadlock probe sees, and one that dropped it cannot use it. For the deadlock check,
 * {@code users} only spares a collection when an outside party has used the primitive already (and most
 * likely holds it still).
 *
 * <p>The field is written under the primitive's own lock (a channel's spin lock, a barrier's monitor),
 * and the deadlock check reads it under that lock too ({@link Waitable#onlyUsedBy}): every use that took
 * the lock before the check did is seen. A plain field is enough because the lock orders it.
 */
public final class Uses {
    /** The {@code users} of a primitive made by a plain thread and not used yet. */
    public static final Object UNUSED = new Object();

    private Uses() {
    }

    /** The first value of {@code users}: the creating fiber's pool, or {@link #UNUSED} on a plain thread. */
    public static Object creator() {
        WorkerPool p = callerPool();
        return p == null ? UNUSED : p;
    }

    /** {@code users} after a use by a party of pool {@code p} (null: a plain thread); called when they differ. */
    public static Object after(Object users, WorkerPool p) {
        return users == UNUSED ? p : null; // the first user, or a second kind of user: for good
    }

    /**
     * Whether only fibers of {@code pool} have used a primitive whose field is {@code users}; with
     * {@code creatorCounts}, not if a plain thread made it ({@code madeOutside}).
     */
    public static boolean onlyBy(Object users, boolean madeOutside, WorkerPool pool, boolean creatorCounts) {
        return users == pool && !(creatorCounts && madeOutside);
    }

    /** The pool of the fiber running on the calling thread, or null on a plain thread (non-pausable calls). */
    public static WorkerPool callerPool() {
        Fiber f = Fiber.runningFiber();
        return f == null ? null : f.pool();
    }
}
