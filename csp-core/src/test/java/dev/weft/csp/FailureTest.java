package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No failure is ever lost: the exception that broke a program is what the program sees, never a deadlock report
 * that hides it or a silent hang. Each case failed before cancellation existed.
 */
class FailureTest {
    private static final int ITERATIONS = 100;

    @Test
    @Timeout(60)
    void mainsOwnExceptionIsRethrownNotADeadlock() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            IllegalStateException bug = new IllegalStateException("the real bug");
            Throwable t = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> ch = Channel.one2one();
                Weft.spawn(() -> ch.out().write(1));
                throw bug;
            }));
            assertSame(bug, t);
        });
    }

    @Test
    @Timeout(60)
    void mainsOwnExceptionIsRethrownWhenTheChannelIsTheCallers() {
        // Before: a silent hang (the writer waits on a channel a plain thread made, so it is never reported).
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> ch = Channel.one2one();
            IllegalStateException bug = new IllegalStateException("the real bug");
            AtomicBoolean writerUnwound = new AtomicBoolean();
            Throwable t = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                Fiber writer = Weft.spawn(() -> {
                    try {
                        ch.out().write(1);
                    } finally {
                        writerUnwound.set(true);
                    }
                });
                Schedulers.awaitParked(writer);
                throw bug;
            }));
            assertSame(bug, t);
            assertTrue(writerUnwound.get(), "the blocked writer was cancelled and ended before Weft.run returned");
            assertEquals(0, s.pool.liveFibers());
        });
    }

    @Test
    @Timeout(60)
    void aFailingBranchIsRethrownAndItsBlockedPartnerCancelled() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            IllegalArgumentException bug = new IllegalArgumentException("branch failed");
            AtomicInteger partnerCancelled = new AtomicInteger();
            AtomicBoolean partnerStarted = new AtomicBoolean();
            Throwable t = assertThrows(IllegalArgumentException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> ch = Channel.one2one();
                Parallel.run(
                        () -> {
                            partnerStarted.set(true);
                            try {
                                ch.in().read();
                            } catch (CancelledException e) {
                                partnerCancelled.incrementAndGet();
                                throw e;
                            }
                        },
                        () -> {
                            while (!partnerStarted.get()) { // a branch cancelled before it starts never runs
                                Fiber.yield();
                            }
                            throw bug;
                        });
            }));
            assertSame(bug, t);
            assertEquals(0, t.getSuppressed().length, "the partner's cancellation is not a failure");
            assertEquals(1, partnerCancelled.get());
        });
    }

    @Test
    @Timeout(60)
    void nestedParsAreCancelledAllTheWayDown() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            AtomicInteger started = new AtomicInteger();
            AtomicInteger cancelled = new AtomicInteger();
            IllegalStateException bug = new IllegalStateException("deep failure");
            Throwable t = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                Any2AnyChannel<Integer> never = Channel.any2any();
                Parallel.run(
                        () -> Parallel.forRange(0, 4, i -> {
                            started.incrementAndGet();
                            try {
                                never.in().read();
                            } catch (CancelledException e) {
                                cancelled.incrementAndGet();
                                throw e;
                            }
                        }),
                        () -> {
                            while (started.get() < 4) { // a branch cancelled before it starts never runs
                                Fiber.yield();
                            }
                            throw bug;
                        });
            }));
            assertSame(bug, t);
            assertEquals(4, cancelled.get());
        });
    }

    @Test
    @Timeout(60)
    void aCancelledParCancelsItsBranches() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            AtomicInteger started = new AtomicInteger();
            AtomicInteger unwound = new AtomicInteger();
            Weft.run(s, () -> {
                Any2AnyChannel<Integer> never = Channel.any2any();
                Fiber par = Weft.spawn(() -> Parallel.forRange(0, 3, i -> {
                    started.incrementAndGet();
                    try {
                        never.in().read();
                    } finally {
                        unwound.incrementAndGet();
                    }
                }));
                while (started.get() < 3) { // a branch cancelled before it starts never runs
                    Fiber.yield();
                }
                par.cancel();
                try {
                    par.join();
                    throw new AssertionError("join returned");
                } catch (CancelledException expected) {
                    assertEquals(3, unwound.get(), "the par returned only once its branches had ended");
                }
            });
        });
    }

    @Test
    @Timeout(60)
    void aDeadlockCarriesTheUnjoinedFailureThatCausedIt() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            IllegalStateException cause = new IllegalStateException("the producer died");
            DeadlockException d = assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> ch = Channel.one2one();
                Weft.spawn(() -> {
                    throw cause; // it should have written to ch
                });
                ch.in().read();
            }));
            assertEquals(1, d.getSuppressed().length, d.toString());
            assertSame(cause, d.getSuppressed()[0]);
            assertEquals(0, s.pool.liveFibers(), "the deadlocked fibers were cancelled and have ended");
        });
    }
}
