package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2OneConnection;
import dev.weft.csp.Barrier;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Channel;
import dev.weft.csp.Connection;
import dev.weft.csp.DeadlockException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Barriers, connections, timers and durations, plain threads on channels, deadlock reports and failures:
 * the rest of the public API as DESIGN's contract states it.
 */
class PrimitivesConformanceTest {

    /** JCSP's barrier: lock step over rounds; no process passes round r before all arrived at r. */
    @Test
    @Timeout(30)
    void barrierKeepsEveryoneInLockStep() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            int parties = 5;
            int rounds = 200;
            AtomicReference<String> problem = new AtomicReference<>();
            int[] reached = new int[parties];
            Weft.run(s, () -> {
                Barrier b = new Barrier(parties);
                Parallel.forRange(0, parties, p -> {
                    for (int r = 0; r < rounds; r++) {
                        reached[p] = r;
                        b.sync();
                        for (int q = 0; q < parties; q++) {
                            if (reached[q] < r) {
                                problem.compareAndSet(null, p + " passed round " + r + " before " + q);
                            }
                        }
                        b.sync();
                    }
                });
            });
            assertNull(problem.get());
        });
    }

    /** Enroll makes rounds wait for one more; resign lets a round complete without the one that left. */
    @Test
    @Timeout(30)
    void enrollAndResign() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            Barrier b = new Barrier(1);
            b.sync(); // alone: at once
            b.enroll();
            Fiber other = Weft.spawn(b::sync);
            Schedulers.awaitParked(other);
            assertFalse(other.isDone());
            b.sync(); // the round of two completes
            other.join();
            Fiber waiting = Weft.spawn(b::sync);
            Schedulers.awaitParked(waiting);
            b.resign(); // main leaves: the round completes for the one waiting
            waiting.join();
            b.sync(); // one enrolled now (main's resigned place is gone; this counts as the other one's)
            b.resign();
            Conformance.expect(IllegalStateException.class, b::resign);
            Conformance.expect(IllegalStateException.class, b::sync);
        }));
        assertThrows(IllegalArgumentException.class, () -> new Barrier(-1));
    }

    /** Connection: many clients of an any2one connection each get the reply to their own request. */
    @Test
    @Timeout(30)
    void connectionClientsEachGetTheirOwnReply() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            AtomicReference<String> problem = new AtomicReference<>();
            Weft.run(s, () -> {
                Any2OneConnection<Integer, String> c = Connection.any2one();
                One2OneChannel<Boolean> stop = Channel.one2one();
                Fiber server = Weft.spawn(() -> {
                    Alternative alt = new Alternative(stop.in(), c.server());
                    for (;;) {
                        if (alt.priSelect() == 0) {
                            stop.in().read();
                            return;
                        }
                        int q = c.server().accept();
                        c.server().reply("re:" + q);
                    }
                });
                Parallel.forRange(0, 8, k -> {
                    for (int i = 0; i < 200; i++) {
                        int q = k * 1000 + i;
                        String r = c.client().request(q);
                        if (!r.equals("re:" + q)) {
                            problem.compareAndSet(null, "request " + q + " got " + r);
                        }
                    }
                });
                stop.out().write(true);
                server.join();
            });
            assertNull(problem.get());
        });
    }

    /** Poison on either end of a connection ends it for both. */
    @Test
    @Timeout(10)
    void poisonEndsAConnection() {
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            Any2OneConnection<Integer, Integer> c = Connection.any2one();
            Fiber client = Weft.spawn(() -> Conformance.expect(PoisonException.class, () -> c.client().request(1)));
            Schedulers.awaitParked(client);
            c.server().poison();
            client.join();
            Conformance.expect(PoisonException.class, () -> c.server().accept());
            Any2OneConnection<Integer, Integer> d = Connection.any2one();
            Fiber server = Weft.spawn(() -> Conformance.expect(PoisonException.class, () -> d.server().accept()));
            Schedulers.awaitParked(server);
            d.client().poison();
            server.join();
        }));
    }

    /** Durations saturate: zero and negative mean now, huge ones never; Long.MIN_VALUE/MAX_VALUE deadlines. */
    @Test
    @Timeout(10)
    void durationsAndDeadlinesSaturate() {
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            Timer.sleep(Duration.ZERO);
            Timer.sleep(Duration.ofNanos(-1));
            Timer.sleep(Duration.ofSeconds(Long.MIN_VALUE));
            Timer.sleepUntil(Long.MIN_VALUE);
            Timer.sleepUntil(System.nanoTime() - 1);
            One2OneChannel<Integer> quiet = Channel.one2one();
            assertEquals(1, new Alternative(quiet.in(), Guards.timeout(Duration.ZERO)).priSelect());
            assertEquals(1, new Alternative(quiet.in(), Guards.timeout(Duration.ofSeconds(Long.MIN_VALUE))).select());
            assertEquals(1, new Alternative(quiet.in(), Guards.deadline(Long.MIN_VALUE)).select());
            assertEquals(1, new Alternative(quiet.in(), Guards.timeout(Duration.ofNanos(-5))).selectNow());
            assertEquals(1, new Alternative(quiet.in(), Guards.deadline(Long.MIN_VALUE)).selectNow());
            assertEquals(-1, new Alternative(quiet.in(), Guards.deadline(Long.MAX_VALUE)).selectNow());
            assertEquals(-1, new Alternative(quiet.in(),
                    Guards.timeout(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))).selectNow());
            // a huge timeout beside a guard that becomes ready: the guard wins, no overflow fires the timer
            Weft.spawn(() -> quiet.out().write(1));
            assertEquals(0, new Alternative(quiet.in(), Guards.timeout(Duration.ofSeconds(Long.MAX_VALUE))).select());
            assertEquals(1, quiet.in().read());
            Weft.spawn(() -> quiet.out().write(2));
            assertEquals(0, new Alternative(quiet.in(), Guards.deadline(Long.MAX_VALUE)).select());
            assertEquals(2, quiet.in().read());
            // a short timeout fires
            assertEquals(1, new Alternative(quiet.in(), Guards.timeout(Duration.ofMillis(2))).select());
        }));
    }

    /** A timeout is measured from the start of each select, so it is ready again on the next one. */
    @Test
    @Timeout(10)
    void aTimeoutGuardRestartsWithEachSelect() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                One2OneChannel<Integer> quiet = Channel.one2one();
                Alternative alt = new Alternative(quiet.in(), Guards.timeout(Duration.ofMillis(1)));
                for (int i = 0; i < 5; i++) {
                    long start = System.nanoTime();
                    assertEquals(1, alt.select());
                    assertTrue(System.nanoTime() - start >= 1_000_000, "waited a full millisecond");
                }
            });
        }
    }

    /** Plain threads use channels directly: thread to thread, thread to fiber, with selects. */
    @Test
    @Timeout(30)
    void plainThreadsUseChannels() throws Exception {
        One2OneChannel<Integer> a = Channel.one2one();
        One2OneChannel<Integer> b = Channel.one2one(2);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                for (int i = 0; i < 1000; i++) {
                    b.out().write(a.in().read() + 1);
                }
                Alternative alt = new Alternative(a.in(), Guards.timeout(Duration.ofDays(1)));
                assertEquals(0, alt.select());
                b.out().write(a.in().read());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        for (int i = 0; i < 1000; i++) {
            a.out().write(i);
            assertEquals(i + 1, b.in().read());
        }
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                a.out().write(-7);
                assertEquals(-7, b.in().read());
            });
        }
        t.join();
        assertNull(failure.get());
    }

    /** An interrupted plain thread gets CancelledException, keeps its interrupt status, and took nothing. */
    @Test
    @Timeout(30)
    void anInterruptedThreadThrowsCancelledAndKeepsItsStatus() throws Exception {
        for (int op = 0; op < 4; op++) {
            One2OneChannel<Integer> c = Channel.one2one();
            Barrier barrier = new Barrier(2);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> interrupted = new AtomicReference<>();
            int which = op;
            Thread t = new Thread(() -> {
                try {
                    switch (which) {
                        case 0 -> c.in().read();
                        case 1 -> c.out().write(1);
                        case 2 -> new Alternative(c.in(), Guards.timeout(Duration.ofDays(1))).select();
                        default -> barrier.sync();
                    }
                } catch (Throwable e) {
                    thrown.set(e);
                }
                interrupted.set(Thread.currentThread().isInterrupted());
            });
            t.start();
            Schedulers.awaitBlocked(t);
            t.interrupt();
            t.join();
            assertTrue(thrown.get() instanceof CancelledException, "op " + op + ": " + thrown.get());
            assertTrue(interrupted.get(), "op " + op + ": interrupt status kept");
            // nothing was left behind: the channel and barrier work for new parties
            Thread w = new Thread(() -> c.out().write(5));
            w.start();
            assertEquals(5, c.in().read());
            w.join();
            Thread s2 = new Thread(barrier::sync);
            s2.start();
            Schedulers.awaitBlocked(s2);
            assertTrue(s2.isAlive(), "the interrupted arrival was withdrawn");
            barrier.sync();
            s2.join();
        }
    }

    /** A deadlock is reported, naming each blocked fiber and what it waits on. */
    @Test
    @Timeout(60)
    void aDeadlockNamesEachBlockedFiber() {
        Schedulers.onOneAndTwoWorkers(1, s -> {
            DeadlockException e = assertThrows(DeadlockException.class, () -> Weft.run(s, PrimitivesConformanceTest::deadlock));
            String m = e.getMessage();
            assertTrue(m.contains("ping-fiber") && m.contains("pong-fiber"), m);
            assertTrue(m.contains("2 blocked fibers"), m);
        });
    }

    @dev.weft.csp.Pausable
    private static void deadlock() {
        One2OneChannel<Integer> x = Channel.one2one();
        One2OneChannel<Integer> y = Channel.one2one();
        Weft.spawn("ping-fiber", () -> y.out().write(x.in().read()));
        Weft.spawn("pong-fiber", () -> x.out().write(y.in().read()));
    }

    /** No failure is lost: main's own exception comes out of Weft.run, even when its partners stay blocked. */
    @Test
    @Timeout(60)
    void mainsFailureIsNeverHiddenByADeadlock() {
        Schedulers.onOneAndTwoWorkers(2, s -> {
            IllegalStateException mine = new IllegalStateException("main failed");
            AtomicInteger unwound = new AtomicInteger();
            RuntimeException e = assertThrows(RuntimeException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> never = Channel.one2one();
                Fiber partner = Weft.spawn(() -> {
                    try {
                        never.in().read();
                    } finally {
                        unwound.incrementAndGet();
                    }
                });
                Schedulers.awaitParked(partner); // started, so its finally block must run
                throw mine;
            }));
            assertSame(mine, e);
            assertEquals(1, unwound.get(), "the blocked partner was cancelled and unwound");
        });
    }

    /**
     * Parallel: the first failure comes out, the other branches are cancelled: each one that started unwinds (its
     * finally block runs); one that had not started yet when the failure came never starts (on two workers the
     * failing branch may run first).
     */
    @Test
    @Timeout(30)
    void parallelRethrowsTheFirstFailureAndCancelsTheRest() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            List<String> starts = java.util.Collections.synchronizedList(new ArrayList<>());
            List<String> ends = java.util.Collections.synchronizedList(new ArrayList<>());
            ArithmeticException boom = new ArithmeticException("boom");
            RuntimeException e = assertThrows(RuntimeException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> never = Channel.one2one();
                Parallel.run(() -> {
                    starts.add("reader"); // no pause before the try: a cancellation strikes only at one
                    try {
                        never.in().read();
                    } finally {
                        ends.add("reader");
                    }
                }, () -> {
                    starts.add("sleeper");
                    try {
                        Timer.sleep(Duration.ofSeconds(Long.MAX_VALUE));
                    } finally {
                        ends.add("sleeper");
                    }
                }, () -> {
                    throw boom;
                });
            }));
            assertSame(boom, e);
            assertEquals(new java.util.TreeSet<>(starts), new java.util.TreeSet<>(ends), "every branch that started unwound");
            assertEquals(starts.size(), ends.size(), ends.toString());
            for (Throwable t : e.getSuppressed()) {
                assertFalse(t instanceof CancelledException, "cancellations are not failures");
            }
        });
    }
}
