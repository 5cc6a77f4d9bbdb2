package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure reaches the scheduler's handler once, and only if nobody joins it: a join that comes after the
 * failure takes it (as {@code CompletableFuture} never prints what {@code join} rethrows); one nobody joins is
 * reported when its run returns, or, outside every run, when its handle becomes unreachable.
 */
class UnjoinedFailureTest {
    /** What a scheduler's handler was given, in order. */
    private static final class Reports {
        final List<String> fibers = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();

        synchronized void add(String fiber, Throwable t) {
            fibers.add(fiber);
            failures.add(t);
            notifyAll();
        }

        synchronized int size() {
            return failures.size();
        }

        synchronized void awaitSize(int n, Duration timeout) throws InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            while (failures.size() < n) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected " + n + " reports within " + timeout + ", got " + fibers);
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private static Scheduler scheduler(int workers, Reports reports) {
        return Scheduler.builder().workers(workers).uncaughtFailureHandler(reports::add).build();
    }

    @Test
    @Timeout(60)
    void aFailureJoinedAfterItHappenedIsRethrownAndNeverReported() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            Reports reports = new Reports();
            try (Scheduler s = scheduler(workers, reports)) {
                for (int i = 0; i < 200; i++) {
                    IllegalStateException boom = new IllegalStateException("boom " + i);
                    AtomicReference<Throwable> joined = new AtomicReference<>();
                    AtomicReference<Throwable> joinedTask = new AtomicReference<>();
                    Weft.run(s, () -> {
                        Fiber f = Weft.spawn(() -> {
                            throw boom;
                        });
                        Task<Integer> t = Weft.async(() -> {
                            throw boom;
                        });
                        while (!f.isDone() || !t.isDone()) {
                            Fiber.yield(); // both have failed, nobody waiting, before anyone joins
                        }
                        try {
                            f.join();
                        } catch (IllegalStateException e) {
                            joined.set(e);
                        }
                        try {
                            t.join();
                        } catch (IllegalStateException e) {
                            joinedTask.set(e);
                        }
                    });
                    assertSame(boom, joined.get());
                    assertSame(boom, joinedTask.get());
                }
            }
            assertEquals(0, reports.size(), "joined failures reach their joiners only: " + reports.fibers);
        }
    }

    @Test
    @Timeout(60)
    void aFailureNobodyJoinsIsReportedOnceWhenItsRunReturns() throws Exception {
        Reports reports = new Reports();
        IllegalStateException boom = new IllegalStateException("never joined");
        IllegalArgumentException task = new IllegalArgumentException("task never joined");
        List<Object> handles = new ArrayList<>(); // held beyond the run: the run's end alone decides
        try (Scheduler s = scheduler(2, reports)) {
            Weft.run(s, () -> {
                handles.add(Weft.spawn("lost", () -> {
                    throw boom;
                }));
                handles.add(Weft.async(() -> {
                    throw task;
                }));
            });
            assertEquals(2, reports.size(), "reported as Weft.run returned: " + reports.fibers);
            assertTrue(reports.failures.contains(boom) && reports.failures.contains(task), reports.fibers::toString);
            assertTrue(reports.fibers.stream().anyMatch(n -> n.contains("[lost]")), reports.fibers::toString);
            Weft.run(s, () -> { }); // later runs report nothing again
            assertThrows(IllegalStateException.class, ((Fiber) handles.get(0))::join, "a late join still rethrows");
        }
        assertEquals(2, reports.size(), "once each");
    }

    @Test
    @Timeout(60)
    void aFailedFiberOutsideEveryRunIsReportedOnceItsHandleIsUnreachable() throws Exception {
        try (LogCapture log = new LogCapture()) {
            Fiber f = Weft.spawn(() -> {
                throw new IllegalStateException("fire and forget");
            });
            while (!f.isDone()) {
                Thread.onSpinWait();
            }
            assertTrue(log.containing("fire and forget").isEmpty(), "the handle may still be joined");
            f = null; // the only handle goes away
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (log.matching(r -> r.getThrown() != null && "fire and forget".equals(r.getThrown().getMessage()))
                    .isEmpty()) {
                assertTrue(System.nanoTime() - end < 0, "not reported once unreachable: " + log.messages());
                System.gc();
                Thread.sleep(20);
            }
        }
    }

    /**
     * A run that waits for what a failed fiber would have done never returns, and an idle program never collects
     * the fiber's handle: the failure must not stay silent. Past the hang-warning delay a warning shows it, once,
     * without taking it from a later join.
     */
    @Test
    @Timeout(60)
    void aFailureHeldPastTheHangWarningDelayIsShownAsAWarning() throws Exception {
        Reports reports = new Reports();
        IllegalStateException boom = new IllegalStateException("the writer failed");
        try (LogCapture log = new LogCapture();
             Scheduler s = Scheduler.builder().workers(2).uncaughtFailureHandler(reports::add)
                     .hangWarning(Duration.ofMillis(200)).build()) {
            Weft.run(s, () -> {
                Fiber writer = Weft.spawn("writer", () -> {
                    throw boom;
                });
                LogRecord warning = Weft.blocking(() -> log.await("nobody has joined it yet", Duration.ofSeconds(20)));
                assertSame(boom, warning.getThrown());
                assertTrue(warning.getMessage().contains("[writer]"), warning.getMessage());
                assertEquals(Level.WARNING, warning.getLevel());
                try {
                    writer.join();
                    throw new AssertionError("the join returned");
                } catch (IllegalStateException joined) {
                    assertSame(boom, joined, "a join still takes it");
                }
            });
            assertEquals(1, log.containing("nobody has joined it yet").size(), "once: " + log.messages());
        }
        assertEquals(0, reports.size(), "joined, so never handed to the handler: " + reports.fibers);
    }

    @Test
    @Timeout(60)
    void aHandlerThatThrowsLeavesTheSchedulerWorking() throws Exception {
        try (Scheduler s = Scheduler.builder().workers(1).uncaughtFailureHandler((fiber, t) -> {
            throw new IllegalStateException("handler failed");
        }).build()) {
            Weft.run(s, () -> Weft.spawn(() -> {
                throw new IllegalStateException("x");
            }));
            AtomicReference<String> ran = new AtomicReference<>();
            Weft.run(s, () -> ran.set("yes"));
            assertEquals("yes", ran.get());
        }
    }

    @Test
    void theBuilderRefusesBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> Scheduler.builder().workers(0));
        assertThrows(NullPointerException.class, () -> Scheduler.builder().uncaughtFailureHandler(null));
        assertThrows(NullPointerException.class, () -> Scheduler.builder().hangWarning(null));
    }
}
