package dev.weft.csp;

import dev.weft.csp.runtime.WorkerPool;

/**
 * Who has used a primitive (a channel, a barrier), for the deadlock check. A primitive keeps one plain
 * field, {@code users}: the pool of the fibers that use it, or null once a plain thread (or a fiber of a
 * second pool) has used it; null stays null. Creating the primitive counts as a use ({@link #creator()}):
 * a channel made by a plain thread (a test's or {@code main}'s channel) is one that thread holds and may use
 * at any time, so fibers waiting on it are never reported. Parties pass their pool, null for a plain thread,
 * so a fast-path operation costs one comparison: {@code if (p != users) users = null}.
 *
 * <p>The field is written under the primitive's own lock (a channel's spin lock, a barrier's monitor),
 * and the deadlock check reads it under that lock too ({@link Waitable#onlyUsedBy}): every use that took
 * the lock before the check did is seen. A plain field is enough because the lock orders it; and the
 * check need not see a use that has not reached the lock yet: that is a party still to come, which the
 * design leaves out (only uses that already happened make a wait uncertain). A use from the creating
 * thread is ordered before any fiber could see the primitive (it was published to the fibers after).
 */
final class Uses {
    private Uses() {
    }

    /** The first value of {@code users}: the creating fiber's pool, or null if a plain thread creates it. */
    static Object creator() {
        return callerPool();
    }

    /** Whether only fibers of {@code pool} have used a primitive whose field is {@code users}. */
    static boolean onlyBy(Object users, WorkerPool pool) {
        return users != null && users == pool;
    }

    /** The pool of the fiber running on the calling thread, or null on a plain thread (non-pausable calls). */
    static WorkerPool callerPool() {
        Fiber f = Fiber.runningFiber();
        return f == null ? null : f.pool();
    }
}
