package dev.weft.csp;

import dev.weft.csp.internal.AltGuard;
import dev.weft.csp.internal.ChannelImpl;
import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberPauses;
import dev.weft.csp.internal.Selection;
import dev.weft.csp.internal.ThreadMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A condition that a party outside every scheduler makes true (bytes arrived on a socket, a future completed):
 * fibers and threads wait for it with {@link #await()}, and it is a {@link Guard} of {@link Alternative} and
 * {@link Select}. The party that changes the condition calls {@link #signal()} afterwards, from any thread. For
 * libraries built on Weft (csp-net's sockets, {@link Weft#await}); programs do not need it.
 *
 * <p>A party waiting here is never part of a deadlock report: the outside party may still come. Whoever waits
 * checks the condition after it has registered, and {@link #signal()} reads the registrations after the
 * condition changed, so no signal is lost between the two.
 */
public final class Readiness implements Guard {
    private final BooleanSupplier ready;
    private final Object description;
    /**
     * The waiters that the next signal wakes, each a {@link Fiber} (in {@link #await()}) or a
     * {@link Selection.Registration} (a select over this guard). Guarded by this; the first one needs no list.
     */
    private Object first;
    private List<Object> more;
    /** What a select sees: an {@link AltGuard} that waits here. */
    final AltGuard guard = new AsGuard();

    /**
     * A readiness whose condition is {@code ready}: cheap, never blocking, safe from any thread. It may start
     * what makes it true when it is false (ask a socket for more bytes): it is called before every wait.
     * {@code description} says what it stands for in fiber dumps ({@code toString()} is called then only).
     */
    public Readiness(BooleanSupplier ready, Object description) {
        this.ready = Objects.requireNonNull(ready, "ready is null");
        this.description = Objects.requireNonNull(description, "description is null");
    }

    /** Whether the condition holds now. */
    public boolean isReady() {
        return ready.getAsBoolean();
    }

    /**
     * Pauses the calling fiber (blocks the calling thread) until the condition holds; returns at once if it
     * does.
     *
     * @throws CancelledException if the fiber is cancelled (the thread interrupted, its interrupt status kept)
     *     before the condition holds
     */
    @Pausable
    public void await() {
        Fiber me = Fiber.current();
        while (!ready.getAsBoolean()) {
            if (FiberAccess.cancelPending(me)) {
                throw FiberAccess.cancelledError(me);
            }
            add(me);
            if (ready.getAsBoolean()) { // it came between the check and the registration
                if (!remove(me) && FiberAccess.isThreadBound(me)) {
                    // A signal took the registration (under this monitor, as remove decides) and owes it exactly
                    // one wake-up, perhaps not given yet: a thread takes it here, so that no later Fiber.park()
                    // returns for it. A fiber's stray wake-up only makes its next wait check its condition
                    // once more.
                    ThreadMode.awaitPermit(me);
                }
                return;
            }
            FiberPauses.waitOn(this); // a thread withdraws itself when interrupted (see withdraw)
            if (FiberAccess.cancelPending(me) && remove(me)) {
                throw FiberAccess.cancelledError(me);
            }
            // else signalled: the loop checks the condition again (a signal may come before it holds)
        }
    }

    /**
     * Wakes every party waiting for the condition (each checks it again) and every select waiting on this
     * guard (each is chosen by it). Call it after the condition may have become true; any thread, any number
     * of times.
     */
    public void signal() {
        Object one;
        Object[] rest = null;
        synchronized (this) {
            one = first;
            first = null;
            if (more != null && !more.isEmpty()) {
                rest = more.toArray();
                more.clear();
            }
        }
        wake(one);
        if (rest != null) {
            for (Object w : rest) {
                wake(w);
            }
        }
    }

    /** The waiter runs on the signalling carrier (where the socket's I/O was polled), or its home if none. */
    private static void wake(Object waiter) {
        if (waiter instanceof Fiber) {
            FiberAccess.unparkPolled(((Fiber) waiter));
        } else if (waiter != null) {
            Selection.Registration r = (Selection.Registration) waiter;
            if (r.selection.claim(r.index)) {
                FiberAccess.unparkPolled(r.selection.fiber);
            }
        }
    }

    private synchronized void add(Object waiter) {
        if (first == null) {
            first = waiter;
        } else {
            if (more == null) {
                more = new ArrayList<>(2);
            }
            more.add(waiter);
        }
    }

    /** Takes {@code waiter} out: true if it was still registered (no signal took it). */
    private synchronized boolean remove(Object waiter) {
        if (first == waiter) {
            first = null;
            return true;
        }
        return more != null && more.remove(waiter);
    }

    /** A thread's wait, interrupted: withdrawn if no signal took it yet (see {@link ThreadMode#withdraw}). */
    boolean withdraw(Fiber f) {
        return remove(f);
    }

    @Override
    public String toString() {
        return description.toString();
    }

    /**
     * This readiness as a guard. A select checks it without any lock of a channel (it has none), so its
     * registration checks the condition again: a signal before the registration would have found nobody.
     */
    private final class AsGuard implements AltGuard {
        @Override
        public ChannelImpl<?> channel() {
            return null;
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return ready.getAsBoolean();
        }

        @Override
        public void register(Selection.Registration me) {
            add(me);
            if (ready.getAsBoolean() && remove(me) && me.selection.claim(me.index)) {
                // Chosen before it waits: a fiber sees the choice before it pauses; a thread waits for a permit.
                if (FiberAccess.isThreadBound(me.selection.fiber)) {
                    me.selection.fiber.unpark();
                }
            }
        }

        @Override
        public void unregister(Selection.Registration me) {
            remove(me);
        }

        @Override
        public String toString() {
            return description.toString();
        }
    }
}
