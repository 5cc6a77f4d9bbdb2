package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fibers that one fiber spawns by the hundred, in one slice, and that the other worker steals: their run counts
 * them all (the spawner counts its starts from a credit), and they leave their spawner's live list although
 * they end elsewhere (a thief takes them out in groups): runs end when the last ends, dumps, cancellation,
 * deadlock reports and closing the scheduler see them as before.
 */
class StolenFibersTest {
    private static final AtomicLong SINK = new AtomicLong();

    /** Some microseconds of computation: long enough for an idle worker to steal the fibers queued behind. */
    private static void work(int n) {
        long x = n;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        SINK.addAndGet(x);
    }

    @Test
    @Timeout(120)
    void aRunEndsOnlyAfterEveryFiberThatItsMainSpawnedInOneSliceEnded() {
        Schedulers.onOneAndTwoWorkers(100, s -> {
            int n = 700; // more than the credit a slice takes at a time
            AtomicInteger ended = new AtomicInteger();
            Weft.run(s, () -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    Weft.spawn(() -> {
                        if (k % 100 == 0) {
                            work(20_000);
                        }
                        ended.incrementAndGet();
                    });
                }
                // main ends here, unjoined children still running: the run waits for them
            });
            assertEquals(n, ended.get());
        });
    }

    @Test
    @Timeout(120)
    void stolenFibersAreJoinedAndCountedAndTheCarriersStopOnceClosed() {
        Set<Thread> others = ConcurrentHashMap.newKeySet();
        for (int trial = 0; trial < 20; trial++) {
            Scheduler s = Scheduler.create(2);
            try {
                for (int round = 0; round < 5; round++) {
                    AtomicInteger sum = new AtomicInteger();
                    Weft.run(s, () -> {
                        Thread spawner = Thread.currentThread();
                        Fiber[] children = new Fiber[64];
                        for (int i = 0; i < children.length; i++) {
                            int k = i;
                            children[i] = Weft.spawn(() -> {
                                work(5_000);
                                if (Thread.currentThread() != spawner) {
                                    others.add(Thread.currentThread());
                                }
                                sum.addAndGet(k);
                            });
                        }
                        for (Fiber f : children) {
                            f.join();
                            assertTrue(f.isDone());
                        }
                    });
                    assertEquals(63 * 64 / 2, sum.get());
                    // those that ended on the thief left their spawner's list before Weft.run returned
                    assertEquals(0, s.pool.liveFibers());
                }
            } finally {
                s.close();
            }
            // Every fiber ended: some left their spawner's live list from the thief's, and the carriers stop.
            while (!s.pool.isTerminated()) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new AssertionError("the carriers did not stop: " + s.pool.liveFibers() + " fibers left");
                }
                Thread.onSpinWait();
            }
            assertEquals(0, s.pool.liveFibers());
        }
        assertTrue(!others.isEmpty(), "no fiber was ever stolen: the test proves nothing");
    }

    @Test
    @Timeout(120)
    void aDumpListsStolenFibersWhileTheyWaitAndNoneOnceTheyEnded() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 20; round++) {
                String[] dumps = new String[2];
                Weft.run(s, () -> {
                    One2AnyChannel<Integer> c = Channel.one2any();
                    Fiber[] children = new Fiber[32];
                    for (int i = 0; i < children.length; i++) {
                        children[i] = Weft.spawn("stolen-" + i, () -> {
                            work(5_000);
                            c.in().read();
                        });
                    }
                    for (Fiber f : children) {
                        Schedulers.awaitParked(f);
                    }
                    dumps[0] = s.dumpFibers();
                    for (int i = 0; i < children.length; i++) {
                        c.out().write(i);
                    }
                    for (Fiber f : children) {
                        f.join();
                    }
                    dumps[1] = s.dumpFibers(); // some ended on the thief, maybe still in the spawner's list
                });
                assertEquals(32, count(dumps[0], "[stolen-"), dumps[0]);
                assertEquals(0, count(dumps[1], "[stolen-"), dumps[1]);
            }
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    @Timeout(120)
    void aFailingMainCancelsTheWaitingFibersItSpawnedWhereverTheyRan() {
        Schedulers.onOneAndTwoWorkers(40, s -> {
            AtomicInteger started = new AtomicInteger();
            AtomicInteger cancelled = new AtomicInteger();
            Fiber[] children = new Fiber[64];
            IllegalStateException boom = new IllegalStateException("main fails");
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                One2AnyChannel<Integer> never = Channel.one2any();
                for (int i = 0; i < children.length; i++) {
                    children[i] = Weft.spawn(() -> {
                        started.incrementAndGet();
                        work(2_000);
                        try {
                            never.in().read();
                        } catch (CancelledException e) {
                            cancelled.incrementAndGet();
                            throw e;
                        }
                    });
                }
                if (s.workers() > 1) {
                    while (started.get() == 0) { // one of them runs on the other worker, stolen
                        Thread.onSpinWait();
                    }
                }
                throw boom; // in the slice that spawned them, while it holds a credit of starts
            }));
            assertSame(boom, thrown);
            for (Fiber f : children) {
                assertTrue(f.isDone()); // the run ended after all of them: those not started never will
            }
            assertEquals(started.get(), cancelled.get(), "every child that started was cancelled as it waited");
        });
    }

    @Test
    @Timeout(120)
    void aDeadlockAmongStolenFibersIsReported() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            DeadlockException e = assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2AnyChannel<Integer> never = Channel.one2any();
                Fiber[] children = new Fiber[16];
                for (int i = 0; i < children.length; i++) {
                    // some end (on whichever worker ran them) before the others block for good
                    boolean blocks = i % 2 == 0;
                    children[i] = Weft.spawn("stuck-" + i, () -> {
                        work(5_000);
                        if (blocks) {
                            never.in().read();
                        }
                    });
                }
                for (Fiber f : children) {
                    f.join();
                }
            }));
            for (int i = 0; i < 16; i++) {
                // the waiting ones are reported; the ended ones (some ended on the thief) are not
                assertEquals(i % 2 == 0, e.getMessage().contains("[stuck-" + i + "]"), e.getMessage());
            }
        });
    }
}
