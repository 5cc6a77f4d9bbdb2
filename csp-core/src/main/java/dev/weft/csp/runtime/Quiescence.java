package dev.weft.csp.runtime;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether a pool has come to rest, and what it asks then ({@link DeadlockCheck}): every worker parked,
 * nothing queued, no timer pending, no {@code Weft.blocking} call in flight. The last worker to park finds
 * the pool so, and runs the check on its carrier.
 */
final class Quiescence {
    private final WorkerPool pool;
    private volatile DeadlockCheck check;
    /** {@code Weft.blocking} calls in flight: a party outside the pool that may still wake a fiber. */
    private final AtomicInteger blockingInFlight = new AtomicInteger();

    Quiescence(WorkerPool pool) {
        this.pool = pool;
    }

    /** Installs the check that runs when the pool comes to rest. */
    void install(DeadlockCheck check) {
        this.check = check;
    }

    /** The deadlock check installed, or null. */
    DeadlockCheck check() {
        return check;
    }

    /** Counts a {@code Weft.blocking} call in flight (+1 as it starts, -1 as it returns). */
    void blockingCall(int delta) {
        blockingInFlight.addAndGet(delta);
    }

    /**
     * Called by {@code self} as it is about to park, with its own {@code parked} flag already set and its
     * last look for work done: if every worker is at rest, runs the deadlock check.
     */
    void checkDeadlock(Worker self) {
        DeadlockCheck c = check;
        if (c == null || pool.idle.get() != pool.size()) {
            return;
        }
        long[] marks = marks(self);
        if (marks == null) {
            return;
        }
        try {
            c.check(pool, () -> Arrays.equals(marks, marks(self)));
        } catch (RuntimeException | Error e) {
            PoolFailures.carrierFailure(null, e); // a bug in the check (or a blocker's toString): the carrier goes on
        }
    }

    /**
     * A fingerprint of the pool at rest, or null if it is not at rest: every other worker parked (with the
     * park session it is in), nothing in any inbox or window, no timer, no blocking call, and the number
     * of live fibers. Two equal fingerprints prove that no worker ran a fiber in between: a worker's
     * {@code parked} flag is set once per session (after the session count is bumped) and cleared for
     * good when it stops idling, so reading {@code parked == 1} and then the same session count means that
     * the worker stayed parked all along. {@code self} dispatches nothing while it checks.
     */
    private long[] marks(Worker self) {
        if (blockingInFlight.get() != 0) {
            return null;
        }
        Worker[] workers = pool.workers();
        long[] marks = new long[workers.length + 1];
        for (int i = 0; i < workers.length; i++) {
            Worker w = workers[i];
            if (w != self) {
                if (!w.isParked()) {
                    return null;
                }
                marks[i] = w.parkSessions; // read after parked: see above
            }
            if (!w.inbox.isEmpty() || !w.window.isEmpty() || !w.timers.isEmpty()) {
                return null;
            }
        }
        if (blockingInFlight.get() != 0) {
            return null;
        }
        marks[workers.length] = pool.liveFibers();
        return marks;
    }

    /**
     * Whether a simulated pool, about to park with timers pending, may move its clock to the next one: only
     * if no party outside the pool could wake one of its fibers first (see {@link DeadlockCheck}).
     */
    boolean onlyTimersCanWake() {
        DeadlockCheck c = check;
        return c != null && blockingInFlight.get() == 0 && c.onlyTimersCanWake(pool);
    }
}
