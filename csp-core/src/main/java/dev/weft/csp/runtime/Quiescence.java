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
    /**
     * A check reads every live fiber, and a pool comes to rest between any two events from outside: a server
     * holding 10,000 idle connections would read them all between two requests of an eleventh, and spend
     * most of its processor time doing so. So after a check the next one waits {@code CHECK_BACK_OFF} times
     * as long as that check took (checks cost at most 1/21 of a carrier), at least
     * {@code MIN_CHECK_DEFERRAL_NANOS} and at most {@code MAX_CHECK_DEFERRAL_NANOS}: the delay a deadlock report
     * may get.
     */
    private static final int CHECK_BACK_OFF = 20;
    private static final long MAX_CHECK_DEFERRAL_NANOS = 1_000_000_000L;
    /**
     * The least wait between two checks, however quick: a server of a hundred busy connections comes to rest
     * thousands of times a second, and a check of its few fibers every few tens of microseconds cost it about 1%
     * of its processor time (and an allocation per park). A deadlock is reported this much later at most.
     */
    private static final long MIN_CHECK_DEFERRAL_NANOS = 10_000_000L;
    /**
     * When the next check may run ({@code System.nanoTime()}), written by whichever worker checked last.
     * Two workers that come to rest at once may both check: that only costs one more check.
     */
    private volatile long nextCheckAt = System.nanoTime();

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
     * last look for work done: if every worker is at rest, runs the deadlock check, or defers it.
     *
     * @return how long {@code self} may park before it must look again for a deferred check (nanoseconds), or
     *         {@code Long.MAX_VALUE} if none is deferred
     */
    long checkDeadlock(Worker self) {
        DeadlockCheck c = check;
        if (c == null || pool.idle.get() != pool.size() || !atRest(self, null)) {
            return Long.MAX_VALUE;
        }
        long start = System.nanoTime();
        long deferred = nextCheckAt - start;
        if (deferred > 0) { // decided before the fingerprint is made: a busy server parks often, and allocates nothing
            return deferred;
        }
        long[] marks = new long[pool.size() + 1];
        if (!atRest(self, marks)) {
            return Long.MAX_VALUE;
        }
        try {
            c.check(pool, () -> {
                long[] now = new long[marks.length];
                return atRest(self, now) && Arrays.equals(marks, now);
            });
        } catch (RuntimeException | Error e) {
            PoolFailures.carrierFailure(null, e); // a bug in the check (or a blocker's toString): the carrier goes on
        } finally {
            long end = System.nanoTime();
            nextCheckAt = end + Math.min(Math.max((end - start) * CHECK_BACK_OFF, MIN_CHECK_DEFERRAL_NANOS),
                    MAX_CHECK_DEFERRAL_NANOS);
        }
        return Long.MAX_VALUE;
    }

    /**
     * Whether the pool is at rest: every other worker parked, nothing in any inbox or window, no timer, no
     * blocking call. If so, and {@code marks} is not null (one slot per worker and one more), its fingerprint goes
     * there: the park session each other worker is in, and the number of live fibers. Two equal fingerprints prove
     * that no worker ran a fiber in between: a worker's {@code parked} flag is set once per session (after the
     * session count is bumped) and cleared for good when it stops idling, so reading {@code parked == 1} and then
     * the same session count means that the worker stayed parked all along. {@code self} dispatches nothing while
     * it checks.
     */
    private boolean atRest(Worker self, long[] marks) {
        if (blockingInFlight.get() != 0) {
            return false;
        }
        Worker[] workers = pool.workers();
        for (int i = 0; i < workers.length; i++) {
            Worker w = workers[i];
            if (w != self) {
                if (!w.isParked()) {
                    return false;
                }
                if (marks != null) {
                    marks[i] = w.parkSessions; // read after parked: see above
                }
            }
            if (!w.inbox.isEmpty() || !w.window.isEmpty() || !w.timers.isEmpty()) {
                return false;
            }
        }
        if (blockingInFlight.get() != 0) {
            return false;
        }
        if (marks != null) {
            marks[workers.length] = pool.liveFibers();
        }
        return true;
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
