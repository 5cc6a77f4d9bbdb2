package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DeadlockTest {
    /** Repetitions on two workers; raise with -Dweft.deadlockTest.iterations=N to stress. */
    private static final int ITERATIONS = Integer.getInteger("weft.deadlockTest.iterations", 200);

    private static void onBoth(int iterations, java.util.function.Consumer<Scheduler> test) {
        Schedulers.onOneAndTwoWorkers(iterations, test);
    }

    private static String deadlock(Scheduler s, CSProcess main) {
        return assertThrows(DeadlockException.class, () -> Weft.run(s, main)).getMessage();
    }

    // ------------------------------------------------------------------------------ real deadlocks
    // The primitives are made inside the run: one a plain thread made is one it may use at any time.

    @Test
    @Timeout(60)
    void twoFibersReadingEachOther() {
        onBoth(ITERATIONS, s -> {
            AtomicReference<One2OneChannel<Integer>> toA = new AtomicReference<>();
            AtomicReference<One2OneChannel<Integer>> toB = new AtomicReference<>();
            AtomicReference<Fiber> a = new AtomicReference<>();
            AtomicReference<Fiber> b = new AtomicReference<>();
            String m = deadlock(s, () -> {
                One2OneChannel<Integer> ca = Channel.one2one();
                One2OneChannel<Integer> cb = Channel.one2one();
                toA.set(ca);
                toB.set(cb);
                a.set(Weft.spawn(() -> cb.out().write(ca.in().read())));
                b.set(Weft.spawn(() -> ca.out().write(cb.in().read())));
            });
            assertTrue(m.contains("\"" + a.get() + "\" parked, waiting on the input of " + toA.get() + "\n"), m);
            assertTrue(m.contains("\"" + b.get() + "\" parked, waiting on the input of " + toB.get() + "\n"), m);
            assertTrue(m.contains("2 blocked fibers"), m);
            assertTrue(m.contains("\tat dev.weft.csp.ChannelImpl$In.read("), m);
        });
    }

    @Test
    @Timeout(60)
    void aBarrierNobodyElseSyncs() {
        onBoth(ITERATIONS, s -> {
            String m = deadlock(s, () -> new Barrier(2).sync());
            assertTrue(m.contains("parked, waiting on a barrier (1 of 2 enrolled processes arrived)"), m);
            assertTrue(m.contains("1 blocked fiber:"), m);
            assertTrue(m.contains("\tat dev.weft.csp.Barrier.sync("), m);
        });
    }

    @Test
    @Timeout(60)
    void anAlternativeOverChannelsNobodyWrites() {
        onBoth(ITERATIONS, s -> {
            AtomicReference<String> expected = new AtomicReference<>();
            String m = deadlock(s, () -> {
                One2OneChannel<Integer> c1 = Channel.one2one();
                Any2OneChannel<Integer> c2 = Channel.any2one();
                expected.set("parked, waiting on an Alternative over [the input of " + c1 + ", the input of " + c2
                        + "]");
                new Alternative(c1.in(), c2.in()).select();
            });
            assertTrue(m.contains(expected.get()), m);
        });
    }

    @Test
    @Timeout(60)
    void twoFibersJoiningEachOther() {
        onBoth(ITERATIONS, s -> {
            AtomicReference<Fiber> a = new AtomicReference<>();
            AtomicReference<Fiber> b = new AtomicReference<>();
            String m = deadlock(s, () -> {
                One2OneChannel<Fiber> toA = Channel.one2one();
                One2OneChannel<Fiber> toB = Channel.one2one();
                a.set(Weft.spawn(() -> toA.in().read().join()));
                b.set(Weft.spawn(() -> toB.in().read().join()));
                toA.out().write(b.get());
                toB.out().write(a.get());
            });
            assertTrue(m.contains("\"" + a.get() + "\" parked, waiting on " + b.get()), m);
            assertTrue(m.contains("\"" + b.get() + "\" parked, waiting on " + a.get()), m);
        });
    }

    @Test
    @Timeout(60)
    void aDeadlockAfterMainEndedStillEndsTheRun() {
        onBoth(20, s -> {
            String m = deadlock(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Weft.spawn(() -> c.in().read());
            });
            assertTrue(m.contains("1 blocked fiber:"), m);
            assertTrue(m.contains("waiting on the input of channel #"), m);
        });
    }

    @Test
    @Timeout(60)
    void theSchedulerGoesOnAfterADeadlock() {
        try (Scheduler s = Scheduler.create(2)) {
            deadlock(s, () -> new Barrier(2).sync());
            AtomicInteger n = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Weft.spawn(() -> c.out().write(41));
                n.set(c.in().read() + 1);
            });
            assertEquals(42, n.get());
        }
    }

    // ---------------------------------------------------------------------------- no false alarm

    @Test
    @Timeout(60)
    void aChannelAPlainThreadHasUsedIsNotADeadlock() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers)) {
                for (int i = 0; i < (workers == 1 ? 3 : 10); i++) {
                    One2OneChannel<Integer> c = Channel.one2one(1);
                    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
                    CountDownLatch used = new CountDownLatch(1);
                    Thread writer = new Thread(() -> {
                        try {
                            c.out().write(1); // a use (into the buffer): from now on the thread may come back
                            used.countDown();
                            long end = System.nanoTime() + 5_000_000_000L;
                            while (!s.dumpFibers().contains("parked, waiting on the input of " + c)
                                    && System.nanoTime() < end) {
                                Thread.onSpinWait();
                            }
                            Thread.sleep(50); // a bounded chance for the check to (wrongly) fire
                            c.out().write(2);
                        } catch (Throwable t) {
                            writerFailure.set(t);
                        }
                    });
                    writer.start();
                    used.await();
                    AtomicInteger sum = new AtomicInteger();
                    Weft.run(s, () -> sum.addAndGet(c.in().read() + c.in().read()));
                    writer.join();
                    assertNull(writerFailure.get());
                    assertEquals(3, sum.get());
                }
            }
        }
    }

    @Test
    @Timeout(60)
    void aChannelAPlainThreadMadeIsNotADeadlock() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers)) {
                One2OneChannel<Integer> c = Channel.one2one(); // made here: this thread may use it any time
                Thread writer = new Thread(() -> {
                    long end = System.nanoTime() + 5_000_000_000L;
                    while (!s.dumpFibers().contains("parked, waiting on the input of " + c)
                            && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                    c.out().write(7);
                });
                writer.start();
                AtomicInteger got = new AtomicInteger();
                Weft.run(s, () -> got.set(c.in().read()));
                writer.join();
                assertEquals(7, got.get());
            }
        }
    }

    @Test
    @Timeout(60)
    void aSleepingFiberIsNotADeadlock() {
        onBoth(10, s -> {
            AtomicInteger got = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one(); // made inside: only the timer keeps it alive
                Weft.spawn(() -> {
                    Timer.sleep(Duration.ofMillis(30));
                    c.out().write(5);
                });
                got.set(c.in().read()); // waits on a channel while the only writer sleeps
            });
            assertEquals(5, got.get());
        });
    }

    @Test
    @Timeout(60)
    void aFiberInABlockingCallIsNotADeadlock() {
        onBoth(10, s -> {
            AtomicInteger got = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one(); // made inside: only the blocking call keeps it alive
                Weft.spawn(() -> c.out().write(Weft.blocking(() -> {
                    Thread.sleep(30);
                    return 6;
                })));
                got.set(c.in().read());
            });
            assertEquals(6, got.get());
        });
    }

    @Test
    @Timeout(60)
    void anAlternativeWithATimeoutIsNotADeadlock() {
        onBoth(10, s -> {
            AtomicInteger chosen = new AtomicInteger(-1);
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                chosen.set(new Alternative(c.in(), Guards.timeout(Duration.ofMillis(20))).select());
            });
            assertEquals(1, chosen.get());
        });
    }

    @Test
    @Timeout(120)
    void aRingNeverReportsADeadlock() {
        try (Scheduler s = Scheduler.create(2)) {
            ring(s, 100_000);
        }
        try (Scheduler s = Scheduler.singleThreaded()) {
            ring(s, 20_000);
        }
    }

    @Test
    @Timeout(120)
    void busyProgramsMadeInsideTheRunNeverReport() {
        for (int workers : new int[] {1, 2, 4}) {
            try (Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers)) {
                for (int i = 0; i < 100; i++) {
                    AtomicInteger total = new AtomicInteger();
                    Weft.run(s, () -> {
                        Any2OneChannel<Integer> fanIn = Channel.any2one();
                        One2OneChannel<Integer> other = Channel.one2one();
                        Barrier barrier = new Barrier(4);
                        java.util.List<Fiber> producers = new java.util.ArrayList<>();
                        for (int p = 0; p < 4; p++) {
                            producers.add(Weft.spawn(() -> {
                                for (int k = 0; k < 50; k++) {
                                    fanIn.out().write(1);
                                    if (k % 10 == 0) {
                                        barrier.sync();
                                    }
                                }
                            }));
                        }
                        Fiber side = Weft.spawn(() -> {
                            for (int k = 0; k < 100; k++) {
                                other.out().write(2);
                            }
                        });
                        Alternative alt = new Alternative(fanIn.in(), other.in());
                        for (int k = 0; k < 300; k++) {
                            total.addAndGet(alt.select() == 0 ? fanIn.in().read() : other.in().read());
                        }
                        for (Fiber f : producers) {
                            f.join();
                        }
                        side.join();
                    });
                    assertEquals(400, total.get());
                }
            }
        }
    }

    /** CommsTime-like: a token goes round a ring of four fibers {@code rounds} times. */
    private static void ring(Scheduler s, int rounds) {
        int n = 4;
        AtomicInteger last = new AtomicInteger();
        Weft.run(s, () -> {
            java.util.List<One2OneChannel<Integer>> links = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                links.add(Channel.one2one()); // made inside the run, so the check examines every wait
            }
            for (int i = 1; i < n; i++) {
                ChannelInput<Integer> in = links.get(i - 1).in();
                ChannelOutput<Integer> out = links.get(i).out();
                Weft.spawn(() -> {
                    for (int r = 0; r < rounds; r++) {
                        out.write(in.read() + 1);
                    }
                });
            }
            ChannelOutput<Integer> first = links.get(0).out();
            ChannelInput<Integer> back = links.get(n - 1).in();
            for (int r = 0; r < rounds; r++) {
                first.write(r);
                last.set(back.read());
            }
        });
        assertEquals(rounds - 1 + n - 1, last.get());
    }
}
