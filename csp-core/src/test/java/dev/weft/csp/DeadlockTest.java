package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DeadlockTest {
    /**
     * Repetitions on one and on two workers; raise with -Dweft.deadlockTest.iterations=N to stress. Each asks for
     * full collections: 200 took 160-210 s per test at load 26 on 2 cores (4 busy loops beside the build).
     */
    private static final int ITERATIONS = Integer.getInteger("weft.deadlockTest.iterations", 60);
    /** Runs of the hand-off tests on two workers, each on a new scheduler (each costs collections). */
    private static final int HANDOFFS = Integer.getInteger("weft.deadlockTest.handoffs", 20);

    private static void onBoth(int iterations, java.util.function.Consumer<Scheduler> test) {
        Schedulers.onOneAndTwoWorkers(iterations, test);
    }

    private static String deadlock(Scheduler s, CSProcess main) {
        return assertThrows(DeadlockException.class, () -> Weft.run(s, main)).getMessage();
    }

    /** A fiber's name in dumps up to its process: {@code Fiber@1b2c3d}. Tests keep this, never the fiber. */
    private static String idOf(Fiber f) {
        return "Fiber@" + Integer.toHexString(System.identityHashCode(f));
    }

    /** The line of report {@code m} about the fiber {@code id}. */
    private static String lineOf(String m, String id) {
        for (String line : m.split("\n")) {
            if (line.startsWith("\"" + id + "[")) {
                return line;
            }
        }
        throw new AssertionError("no line about " + id + " in " + m);
    }

    // ------------------------------------------------------------------------------ real deadlocks
    // The test keeps only strings of what it looks at: a channel or a fiber this thread still holds is one it
    // could use (or cancel) once Weft.run returns, which keeps the fibers waiting on it reachable: no report.

    @Test
    @Timeout(300) // each iteration asks for a full collection: slow on a loaded machine
    void twoFibersReadingEachOther() {
        onBoth(ITERATIONS, s -> {
            AtomicReference<String> toA = new AtomicReference<>();
            AtomicReference<String> toB = new AtomicReference<>();
            AtomicReference<String> a = new AtomicReference<>();
            AtomicReference<String> b = new AtomicReference<>();
            AtomicInteger unwound = new AtomicInteger();
            String m = deadlock(s, () -> {
                One2OneChannel<Integer> ca = Channel.one2one();
                One2OneChannel<Integer> cb = Channel.one2one();
                toA.set(ca.toString());
                toB.set(cb.toString());
                a.set(idOf(Weft.spawn(() -> {
                    try {
                        cb.out().write(ca.in().read());
                    } finally {
                        unwound.incrementAndGet();
                    }
                })));
                b.set(idOf(Weft.spawn(() -> {
                    try {
                        ca.out().write(cb.in().read());
                    } finally {
                        unwound.incrementAndGet();
                    }
                })));
            });
            assertTrue(lineOf(m, a.get()).endsWith("parked, waiting on the input of " + toA.get()), m);
            assertTrue(lineOf(m, b.get()).endsWith("parked, waiting on the input of " + toB.get()), m);
            assertTrue(m.contains("2 blocked fibers"), m);
            assertTrue(m.contains("\tat dev.weft.csp.internal.ChannelImpl$In.read("), m);
            assertEquals(2, unwound.get(), "both were cancelled and unwound before Weft.run threw");
        });
    }

    @Test
    @Timeout(300) // each iteration asks for a full collection: slow on a loaded machine
    void aBarrierNobodyElseSyncs() {
        onBoth(ITERATIONS, s -> {
            AtomicInteger unwound = new AtomicInteger();
            String m = deadlock(s, () -> {
                try {
                    new Barrier(2).sync();
                } finally {
                    unwound.incrementAndGet();
                }
            });
            assertTrue(m.contains("parked, waiting on a barrier (1 of 2 enrolled processes arrived)"), m);
            assertTrue(m.contains("1 blocked fiber:"), m);
            assertTrue(m.contains("\tat dev.weft.csp.Barrier.sync("), m);
            assertEquals(1, unwound.get());
        });
    }

    @Test
    @Timeout(300) // each iteration asks for a full collection: slow on a loaded machine
    void anAlternativeOverChannelsNobodyWrites() {
        onBoth(ITERATIONS, s -> {
            AtomicReference<String> expected = new AtomicReference<>();
            AtomicInteger unwound = new AtomicInteger();
            String m = deadlock(s, () -> {
                One2OneChannel<Integer> c1 = Channel.one2one();
                Any2OneChannel<Integer> c2 = Channel.any2one();
                expected.set("parked, waiting on an Alternative over [the input of " + c1 + ", the input of " + c2
                        + "]");
                try {
                    new Alternative(c1.in(), c2.in()).select();
                } finally {
                    unwound.incrementAndGet();
                }
            });
            assertTrue(m.contains(expected.get()), m);
            assertEquals(1, unwound.get());
        });
    }

    @Test
    @Timeout(300) // each iteration asks for a full collection: slow on a loaded machine
    void twoFibersJoiningEachOther() {
        onBoth(ITERATIONS, s -> {
            AtomicReference<String> a = new AtomicReference<>();
            AtomicReference<String> b = new AtomicReference<>();
            AtomicInteger unwound = new AtomicInteger();
            String m = deadlock(s, () -> {
                One2OneChannel<Fiber> toA = Channel.one2one();
                One2OneChannel<Fiber> toB = Channel.one2one();
                Fiber fa = Weft.spawn(() -> {
                    try {
                        toA.in().read().join();
                    } finally {
                        unwound.incrementAndGet();
                    }
                });
                Fiber fb = Weft.spawn(() -> {
                    try {
                        toB.in().read().join();
                    } finally {
                        unwound.incrementAndGet();
                    }
                });
                a.set(idOf(fa));
                b.set(idOf(fb));
                toA.out().write(fb);
                toB.out().write(fa);
            });
            assertTrue(lineOf(m, a.get()).contains("parked, waiting on " + b.get() + "["), m);
            assertTrue(lineOf(m, b.get()).contains("parked, waiting on " + a.get() + "["), m);
            assertEquals(2, unwound.get());
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

    // ---------------------------------------------------------- held outside: the collector's word

    /** Runs on one worker, then {@code iterations} times on two, each on a new scheduler (probe counts start at 0). */
    private static void onFreshSchedulers(int iterations, java.util.function.Consumer<Scheduler> test) {
        for (int workers = 1; workers <= 2; workers++) {
            for (int i = 0; i < (workers == 1 ? 1 : iterations); i++) {
                try (Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers)) {
                    test.accept(s);
                }
            }
        }
    }

    /** Waits until collections of deadlock probes of {@code s} have found its fibers reachable {@code n} times. */
    private static void awaitRefuted(Scheduler s, long n) {
        while (s.pool.deadlockProbesRefuted() < n) {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted (timed out?) while waiting for a deadlock probe");
            }
            Thread.yield();
        }
    }

    /** Starts a thread that runs {@code then} once a probe of {@code s} has found the fibers reachable. */
    private static Thread afterARefutedProbe(Scheduler s, Runnable then) {
        Thread t = new Thread(() -> {
            awaitRefuted(s, 1);
            then.run();
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The issue's case: the task has not used the channel when the check runs, and writes after it. */
    @Test
    @Timeout(120)
    void aChannelHandedToAnExecutorTaskIsNotADeadlock() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            onFreshSchedulers(HANDOFFS, s -> {
                CountDownLatch probed = new CountDownLatch(1);
                Thread releaser = afterARefutedProbe(s, probed::countDown);
                AtomicReference<Throwable> taskFailure = new AtomicReference<>();
                AtomicInteger got = new AtomicInteger();
                Weft.run(s, () -> {
                    One2OneChannel<Integer> c = Channel.one2one();
                    executor.execute(writeOnceReleased(probed, c.out(), taskFailure));
                    got.set(c.in().read());
                });
                join(releaser);
                assertNull(taskFailure.get());
                assertEquals(42, got.get());
                assertTrue(s.pool.deadlockProbes() >= 1);
            });
        } finally {
            executor.shutdownNow();
        }
    }

    /** A task that writes 42 to {@code out} once {@code released} (only then), keeping what it throws. */
    private static Runnable writeOnceReleased(CountDownLatch released, ChannelOutput<Integer> out,
            AtomicReference<Throwable> failure) {
        return () -> {
            try {
                released.await();
                out.write(42);
            } catch (Throwable t) {
                failure.set(t);
            }
        };
    }

    @Test
    @Timeout(120)
    void aChannelHandedToAFiberOfAnotherSchedulerIsNotADeadlock() {
        try (Scheduler other = Scheduler.create(1)) {
            onFreshSchedulers(HANDOFFS, s -> {
                One2OneChannel<Integer> go = Channel.one2one();
                Thread releaser = afterARefutedProbe(s, () -> go.out().write(1));
                AtomicInteger got = new AtomicInteger();
                Weft.run(s, () -> {
                    One2OneChannel<Integer> c = Channel.one2one();
                    Weft.spawn(other, () -> {
                        go.in().read();
                        c.out().write(43);
                    });
                    got.set(c.in().read());
                });
                join(releaser);
                assertEquals(43, got.get());
            });
        }
    }

    /**
     * A plain thread that holds the channel may write at any time: the fiber waits, as a goroutine waits on a
     * channel a live goroutine holds. Collections keep finding it reachable and nothing is reported; here the
     * thread never writes, and the wait ends only when the run is interrupted.
     */
    @Test
    @Timeout(120)
    void aChannelAPlainThreadHoldsAndNeverWritesIsNotADeadlock() {
        onFreshSchedulers(HANDOFFS, s -> {
            One2OneChannel<Integer> c = Channel.one2one(); // this thread holds it, and never writes
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            AtomicInteger unwound = new AtomicInteger();
            Thread runner = new Thread(() -> {
                try {
                    Weft.run(s, () -> {
                        try {
                            c.in().read();
                        } finally {
                            unwound.incrementAndGet();
                        }
                    });
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            runner.start();
            awaitRefuted(s, 2); // the first probe and its retry: no report either time
            assertTrue(runner.isAlive());
            assertNull(outcome.get());
            runner.interrupt();
            join(runner);
            assertTrue(outcome.get() instanceof CancelledException, String.valueOf(outcome.get()));
            assertEquals(1, unwound.get());
            assertTrue(c.toString().startsWith("channel #")); // used after the run: held all along, even compiled
        });
    }

    /** Each run has its probe: one run waiting on a plain thread does not hide another run's deadlock. */
    @Test
    @Timeout(120)
    void aDeadlockedRunIsReportedBesideARunThatWaitsOnAPlainThread() {
        onFreshSchedulers(HANDOFFS, s -> {
            One2OneChannel<Integer> c = Channel.one2one(); // this thread holds it: the other run waits on it
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            AtomicInteger got = new AtomicInteger();
            Thread waiting = new Thread(() -> {
                try {
                    Weft.run(s, () -> got.set(c.in().read()));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            waiting.start();
            awaitRefuted(s, 1); // the waiting run was probed, and found held
            String m = deadlock(s, () -> new Barrier(2).sync());
            assertTrue(m.contains("1 blocked fiber:"), m);
            assertTrue(m.contains("waiting on a barrier"), m);
            assertTrue(waiting.isAlive());
            assertNull(outcome.get());
            c.out().write(45);
            join(waiting);
            assertNull(outcome.get());
            assertEquals(45, got.get());
        });
    }

    /** A probe that found the fibers reachable asks again: once the last holder lets go, the report comes. */
    @Test
    @Timeout(120)
    void aDeadlockIsReportedOnceTheLastOutsideHolderLetsGo() {
        onFreshSchedulers(HANDOFFS, s -> {
            AtomicReference<Object> holder = new AtomicReference<>();
            Thread letGo = afterARefutedProbe(s, () -> holder.set(null));
            String m = deadlock(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                holder.set(c);
                c.in().read();
            });
            join(letGo);
            assertTrue(m.contains("1 blocked fiber:"), m);
            assertTrue(s.pool.deadlockProbesRefuted() >= 1);
        });
    }

    /**
     * The common layout: channels made on the test thread, then Weft.run on that thread. Its frame holds the
     * channel, and the collector cannot tell that the thread is blocked in this very run: not reported.
     * The run waits until it is interrupted (or the channel written).
     */
    @Test
    @Timeout(120)
    void aDeadlockOnAChannelTheRunningThreadHoldsWaitsUntilInterrupted() {
        onFreshSchedulers(HANDOFFS, s -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Thread me = Thread.currentThread();
            Thread interrupter = afterARefutedProbe(s, me::interrupt);
            AtomicInteger unwound = new AtomicInteger();
            assertThrows(CancelledException.class, () -> Weft.run(s, () -> {
                try {
                    c.in().read();
                } finally {
                    unwound.incrementAndGet();
                }
            }));
            assertTrue(Thread.interrupted());
            join(interrupter);
            assertEquals(1, unwound.get());
            assertTrue(c.toString().startsWith("channel #")); // used after the run: held all along, even compiled
        });
    }

    /**
     * The other way round: made on the test thread (as before, where making counted as a use and blocked any
     * report), but held by nothing outside the run: reported.
     */
    @Test
    @Timeout(120)
    void aDeadlockOnAChannelMadeOnTheTestThreadButNotHeldIsReported() {
        onBoth(20, s -> {
            // The process goes straight from the call that makes it into Weft.run: held in no local of this
            // thread (an interpreted frame keeps its locals, and a captured one, reachable).
            String m = assertThrows(DeadlockException.class, () -> Weft.run(s, aReaderOfAChannelNobodyElseHolds()))
                    .getMessage();
            assertTrue(m.contains("1 blocked fiber:"), m);
            assertTrue(m.contains("waiting on the input of channel #"), m);
        });
    }

    /** Made here, on the calling (plain) thread; only the returned process holds the channel. */
    private static CSProcess aReaderOfAChannelNobodyElseHolds() {
        One2OneChannel<Integer> c = Channel.one2one();
        return () -> c.in().read();
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
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
