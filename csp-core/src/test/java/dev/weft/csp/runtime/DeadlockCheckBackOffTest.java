package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.DeadlockException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.internal.DeadlockDetector;
import dev.weft.csp.spi.Extensions;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pool that holds many waiting fibers and comes to rest between every two events from outside (a server with
 * many idle connections and one busy one) spends a bounded share of its time in deadlock checks, each of which
 * reads every live fiber; and a check deferred by that bound still runs, so a deadlock is still reported.
 */
class DeadlockCheckBackOffTest {
    private static final int WAITING = 2_000;
    private static final long CHECK_NANOS = 1_000_000;
    private static final int ROUND_TRIPS = 500;

    /**
     * Passes every check on to the real detector, makes it last at least {@code CHECK_NANOS} (as reading
     * a pool of a million fibers would), and times it.
     */
    private static final class TimedCheck implements DeadlockCheck {
        final DeadlockDetector real = new DeadlockDetector();
        final long leastNanos;
        long checks;
        long nanosInChecks;
        long longestCheck;

        TimedCheck(long leastNanos) {
            this.leastNanos = leastNanos;
        }

        synchronized void reset() {
            checks = 0;
            nanosInChecks = 0;
            longestCheck = 0;
        }

        @Override
        public void check(WorkerPool pool, BooleanSupplier stillAtRest) {
            long start = System.nanoTime();
            real.check(pool, stillAtRest);
            while (System.nanoTime() - start < leastNanos) {
                Thread.onSpinWait();
            }
            long took = System.nanoTime() - start;
            synchronized (this) {
                checks++;
                nanosInChecks += took;
                longestCheck = Math.max(longestCheck, took);
            }
        }

        @Override
        public boolean unreachable(WorkerPool pool, List<Schedulable> fibers) {
            return real.unreachable(pool, fibers);
        }

        @Override
        public boolean onlyTimersCanWake(WorkerPool pool) {
            return real.onlyTimersCanWake(pool);
        }

        @Override
        public String hangWarning(WorkerPool pool, List<Schedulable> fibers, long nanos) {
            return real.hangWarning(pool, fibers, nanos);
        }
    }

    @Test
    @Timeout(120)
    void checksTakeABoundedShareWhileManyFibersWait() throws Exception {
        try (Scheduler s = Scheduler.create(1)) {
            TimedCheck timed = install(s, CHECK_NANOS);
            PollerTest.PipePoller poller = (PollerTest.PipePoller) Extensions.pool(s)
                    .plugPollers(carrier -> new PollerTest.PipePoller())[0];
            // WAITING fibers wait on a future (as on a socket): they may still be woken, so no check reports them,
            // but each check reads them all. One more echoes what the carrier's poller reads from a pipe.
            CompletableFuture<Void> idle = new CompletableFuture<>();
            BlockingQueue<Integer> replies = new ArrayBlockingQueue<>(ROUND_TRIPS);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread running = run(s, failed, () -> {
                for (int i = 0; i < WAITING; i++) {
                    Weft.spawn(() -> Weft.await(idle));
                }
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    replies.add(poller.bytes.in().read());
                }
            });
            WorkerPool pool = Extensions.pool(s);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (pool.liveFibers() < WAITING + 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(pool.liveFibers() >= WAITING + 1, "the fibers did not start: " + pool.liveFibers());

            timed.reset();
            long start = System.nanoTime();
            for (int i = 0; i < ROUND_TRIPS; i++) { // the pool comes to rest after each reply
                poller.send(i);
                assertEquals(i & 0xff, replies.poll(60, TimeUnit.SECONDS) & 0xff);
            }
            long elapsed = System.nanoTime() - start;
            long inChecks;
            long checks;
            long longest;
            synchronized (timed) {
                inChecks = timed.nanosInChecks;
                checks = timed.checks;
                longest = timed.longestCheck;
            }
            // Each check is followed by 20 times its length without one; the first and the last may straddle the
            // measured span.
            assertTrue(inChecks <= elapsed / 20 + 2 * longest, checks + " deadlock checks took "
                    + inChecks / 1_000_000 + " ms of " + elapsed / 1_000_000 + " ms (longest "
                    + longest / 1_000 + " us): more than 1/20 of the time");

            // Right after a check the next is deferred; a deadlock that happens now is still reported, by a
            // carrier that comes back for the deferred check.
            assertThrows(DeadlockException.class, () -> Weft.run(s, () -> Channel.<Integer>one2one().in().read()));

            idle.complete(null);
            running.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!running.isAlive(), "the fibers did not end once their future completed");
            assertEquals(null, failed.get());
        }
    }

    /**
     * A pool of few fibers, whose checks are quick, that comes to rest between every two events from outside (a
     * server of a few busy connections) checks at most once per 10 ms, however quick the checks; a deadlock that
     * happens right after a check is still reported.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    @Timeout(120)
    void quickChecksWaitTheLeastDeferralBetweenThem(int workers) throws Exception {
        try (Scheduler s = Scheduler.create(workers)) {
            TimedCheck timed = install(s, 0);
            PollerTest.PipePoller[] pollers = PollerTest.plug(s);
            CompletableFuture<Void> idle = new CompletableFuture<>();
            BlockingQueue<Integer> replies = new ArrayBlockingQueue<>(ROUND_TRIPS);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread running = run(s, failed, () -> {
                Weft.spawn(() -> Weft.await(idle)); // a fiber that may still be woken: every check finds nothing
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    replies.add(pollers[0].bytes.in().read());
                }
            });
            timed.reset();
            long start = System.nanoTime();
            for (int i = 0; i < ROUND_TRIPS; i++) { // the pool comes to rest after each reply
                pollers[0].send(i);
                assertEquals(i & 0xff, replies.poll(60, TimeUnit.SECONDS) & 0xff);
            }
            long elapsed = System.nanoTime() - start;
            long checks;
            synchronized (timed) {
                checks = timed.checks;
            }
            // The first check may come at once, and one more may straddle the end of the measured span.
            assertTrue(checks <= elapsed / 10_000_000 + 2, checks + " deadlock checks in " + elapsed / 1_000_000
                    + " ms: more than one per 10 ms");

            assertThrows(DeadlockException.class, () -> Weft.run(s, () -> Channel.<Integer>one2one().in().read()));
            idle.complete(null);
            running.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!running.isAlive(), "the fibers did not end once their future completed");
            assertEquals(null, failed.get());
        }
    }

    /** Starts {@code Weft.run(s, main)} on a plain thread of its own. */
    private static Thread run(Scheduler s, AtomicReference<Throwable> failed, CSProcess main) {
        Thread t = new Thread(() -> {
            try {
                Weft.run(s, main);
            } catch (Throwable e) {
                failed.compareAndSet(null, e);
            }
        });
        t.start();
        return t;
    }

    private static TimedCheck install(Scheduler s, long leastNanos) {
        TimedCheck timed = new TimedCheck(leastNanos);
        Weft.run(s, () -> { }); // the carriers have started
        Extensions.pool(s).setDeadlockCheck(timed);
        return timed;
    }
}
