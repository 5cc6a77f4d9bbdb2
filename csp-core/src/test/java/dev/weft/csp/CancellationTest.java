package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.Joiners;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Fiber#cancel()}: a fiber blocked in each pausable operation is cancelled; the operation throws
 * {@link CancelledException}, its {@code finally} blocks run, and the primitive is left as if the operation had
 * never been called. Each case runs on one worker, then many times on two.
 */
class CancellationTest {
    /** Repetitions on two workers; raise with -Dweft.cancellationTest.iterations=N to stress. */
    private static final int ITERATIONS = Integer.getInteger("weft.cancellationTest.iterations", 100);

    /**
     * Spawns {@code blocked}, waits until it is parked, cancels it, checks that it ended by CancelledException
     * after running its finally block, then runs {@code afterwards} (which checks the primitive).
     */
    private static void cancelWhileBlocked(Scheduler s, CSProcess blocked, CSProcess afterwards) {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean unwound = new AtomicBoolean();
        Weft.run(s, () -> {
            Fiber f = Weft.spawn(() -> {
                try {
                    blocked.run();
                } catch (Throwable t) {
                    thrown.set(t);
                    throw t;
                } finally {
                    unwound.set(true);
                }
            });
            Schedulers.awaitParked(f);
            f.cancel();
            f.cancel(); // idempotent
            try {
                f.join();
                throw new AssertionError("join of a cancelled fiber returned");
            } catch (CancelledException expected) {
                // what the fiber ended with
            }
            assertTrue(f.isDone());
            assertTrue(f.isCancelled());
            afterwards.run();
        });
        assertInstanceOf(CancelledException.class, thrown.get());
        assertTrue(unwound.get(), "finally ran");
    }

    @Test
    @Timeout(60)
    void aCancelledReadTookNothing() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> c = Channel.one2one();
            cancelWhileBlocked(s, () -> c.in().read(), () -> {
                Weft.spawn(() -> c.out().write(7));
                assertEquals(7, c.in().read());
            });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledWriteDeliveredNothing() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> c = Channel.one2one();
            cancelWhileBlocked(s, () -> c.out().write(1), () -> {
                Weft.spawn(() -> c.out().write(2));
                assertEquals(2, c.in().read(), "the cancelled value is gone");
                assertFalse(c.in().pending());
            });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledWriteToAFullBufferDeliveredNothing() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> c = Channel.one2one(1);
            cancelWhileBlocked(s, () -> {
                c.out().write(1);
                c.out().write(2);
            }, () -> {
                assertEquals(1, c.in().read());
                assertFalse(c.in().pending(), "the cancelled value is gone");
            });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledSharedReaderLeavesTheQueue() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            Any2AnyChannel<Integer> c = Channel.any2any();
            AtomicInteger got = new AtomicInteger();
            cancelWhileBlocked(s, () -> c.in().read(), () -> {
                Fiber other = Weft.spawn(() -> got.set(c.in().read()));
                c.out().write(5);
                other.join();
                assertEquals(5, got.get());
            });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledSelectTookNothing() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> a = Channel.one2one();
            One2OneChannel<Integer> b = Channel.one2one();
            cancelWhileBlocked(s, () -> new Alternative(a.in(), b.in()).select(), () -> {
                Weft.spawn(() -> a.out().write(3));
                assertEquals(3, a.in().read());
                assertFalse(b.in().pending());
            });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledSelectWithATimeoutLeavesNoTimer() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> a = Channel.one2one();
            cancelWhileBlocked(s, () -> new Alternative(a.out(), Guards.timeout(Duration.ofHours(1))).select(),
                    () -> {
                        assertEquals(0, s.pool.pendingTimers(), "the select's timer left the heap");
                        Weft.spawn(() -> a.out().write(4));
                        assertEquals(4, a.in().read());
                    });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledSyncWithdrewItsArrival() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            Barrier barrier = new Barrier(2);
            cancelWhileBlocked(s, barrier::sync, () -> {
                // Still 2 enrolled and nobody arrived: one sync alone must wait for a second.
                AtomicInteger through = new AtomicInteger();
                Fiber one = Weft.spawn(() -> {
                    barrier.sync();
                    through.incrementAndGet();
                });
                Schedulers.awaitParked(one);
                assertEquals(0, through.get());
                barrier.sync();
                one.join();
                assertEquals(1, through.get());
            });
        });
    }

    @Test
    @Timeout(60)
    void aCancelledJoinLeavesItsTargetAlone() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> gate = Channel.one2one();
            AtomicInteger result = new AtomicInteger();
            Weft.run(s, () -> {
                Fiber target = Weft.spawn(() -> result.set(gate.in().read()));
                cancelJoiner(target);
                gate.out().write(9);
                target.join();
                assertEquals(9, result.get());
                assertFalse(target.isCancelled());
            });
        });
    }

    @Pausable
    private static void cancelJoiner(Fiber target) {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Fiber j = Weft.spawn(() -> {
            try {
                target.join();
            } catch (CancelledException e) {
                thrown.set(e);
            }
        });
        Schedulers.awaitParked(j);
        j.cancel();
        j.join();
        assertInstanceOf(CancelledException.class, thrown.get());
    }

    @Test
    @Timeout(60)
    void aCancelledSleepEndsAtOnceAndLeavesNoTimer() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> cancelWhileBlocked(s,
                () -> Timer.sleep(Duration.ofHours(1)),
                () -> assertEquals(0, s.pool.pendingTimers())));
    }

    @Test
    @Timeout(60)
    void aCancelledEndlessSleepEnds() {
        Schedulers.onOneAndTwoWorkers(10, s -> cancelWhileBlocked(s,
                () -> Timer.sleep(Duration.ofSeconds(Long.MAX_VALUE)), () -> { }));
    }

    @Test
    @Timeout(60)
    void aCancelledBlockingCallInterruptsItsThread() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Weft.run(s, () -> {
                Fiber f = Weft.spawn(() -> {
                    try {
                        Weft.blocking(() -> {
                            started.countDown();
                            try {
                                new CountDownLatch(1).await();
                            } catch (InterruptedException e) {
                                interrupted.countDown();
                            }
                            return null;
                        });
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                });
                Weft.blocking(() -> {
                    started.await();
                    return null;
                });
                f.cancel();
                f.join();
                Weft.blocking(() -> {
                    interrupted.await();
                    return null;
                });
            });
            assertInstanceOf(CancelledException.class, thrown.get());
        });
    }

    @Test
    @Timeout(60)
    void aCancelledParkThrows() {
        Schedulers.onOneAndTwoWorkers(10, s -> cancelWhileBlocked(s, () -> {
            for (;;) {
                Fiber.park();
            }
        }, () -> { }));
    }

    @Test
    @Timeout(60)
    void cancellationIsStickyAndFinallyBlocksRun() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> c = Channel.one2one();
            List<String> seen = new ArrayList<>();
            cancelWhileBlocked(s, () -> {
                try {
                    c.in().read();
                } catch (CancelledException first) {
                    seen.add("first");
                    try {
                        c.out().write(1); // every later pause throws too
                    } catch (CancelledException second) {
                        seen.add("second");
                    }
                    throw first;
                }
            }, () -> assertEquals(List.of("first", "second"), seen));
        });
    }

    @Test
    @Timeout(60)
    void aFiberCancelledBeforeItRunsNeverStarts() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            AtomicBoolean ran = new AtomicBoolean();
            Weft.run(s, () -> {
                Fiber f = Weft.spawn(() -> ran.set(true));
                f.cancel(); // one worker: f is queued behind this fiber and has not run
                try {
                    f.join();
                    throw new AssertionError("join returned");
                } catch (CancelledException expected) {
                    assertFalse(ran.get());
                }
            });
        }
    }

    @Test
    @Timeout(60)
    void cancellingAnEndedFiberChangesNothing() {
        Schedulers.onOneAndTwoWorkers(10, s -> Weft.run(s, () -> {
            Fiber f = Weft.spawn(() -> { });
            f.join();
            f.cancel();
            f.join(); // still the normal ending
        }));
    }

    @Test
    @Timeout(60)
    void aFiberThatCatchesTheCancellationEndsNormally() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> {
            One2OneChannel<Integer> c = Channel.one2one();
            AtomicReference<Throwable> joined = new AtomicReference<>();
            Weft.run(s, () -> {
                Fiber f = Weft.spawn(() -> {
                    try {
                        c.in().read();
                    } catch (CancelledException e) {
                        // handled: the fiber ends normally
                    }
                });
                Schedulers.awaitParked(f);
                f.cancel();
                try {
                    f.join();
                } catch (Throwable t) {
                    joined.set(t);
                }
            });
            assertNull(joined.get());
        });
    }

    @Test
    @Timeout(60)
    void cancelRacingAWriterLosesNothing() {
        // The reader is cancelled while a writer arrives: either the value was read, or it is still there.
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < 2000; i++) {
                One2OneChannel<Integer> c = Channel.one2one();
                AtomicInteger got = new AtomicInteger(-1);
                Weft.run(s, () -> {
                    Fiber reader = Weft.spawn(() -> {
                        try {
                            got.set(c.in().read());
                        } catch (CancelledException e) {
                            // withdrawn: the value must still be there
                        }
                    });
                    Fiber writer = Weft.spawn(() -> c.out().write(1));
                    reader.cancel();
                    Joiners.awaitEnd(reader, false);
                    if (got.get() != 1) {
                        assertEquals(1, c.in().read(), "the value was neither read nor left");
                    }
                    writer.join();
                });
            }
        }
    }
}
