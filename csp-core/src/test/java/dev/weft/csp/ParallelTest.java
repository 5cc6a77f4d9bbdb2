package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.FiberProbe;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ParallelTest {

    @Test
    @Timeout(10)
    void runsAllAndWaitsForAll() {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicInteger done = new AtomicInteger();
            Weft.run(s, () -> {
                Parallel.run();
                Parallel.forRange(0, 100, i -> {
                    Timer.sleep(Duration.ofMillis(i % 3));
                    done.incrementAndGet();
                });
                assertEquals(100, done.get());
                Parallel.forRange(5, 5, i -> done.incrementAndGet());
            });
            assertEquals(100, done.get());
        }
    }

    /**
     * The par's fiber waits once, on the par, which its last branch wakes once done: branches that end before
     * the par has even recorded them, and branches that pause first, on one worker and many times on two. When
     * the par returns, every branch is done.
     */
    @Test
    @Timeout(60)
    void theLastBranchToEndWakesThePar() {
        Schedulers.onOneAndTwoWorkers(200, s -> {
            AtomicInteger ended = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Queue<Fiber> branches = new ConcurrentLinkedQueue<>();
                Parallel.run(
                        () -> branches.add(Fiber.current()),
                        () -> Parallel.run(() -> ended.addAndGet(c.in().read()), () -> c.out().write(10)),
                        () -> {
                            branches.add(Fiber.current());
                            Fiber.yield();
                            ended.incrementAndGet();
                        },
                        ended::incrementAndGet);
                assertEquals(12, ended.get());
                assertEquals(2, branches.size());
                for (Fiber f : branches) {
                    assertTrue(f.isDone(), f + " still running after its par returned");
                }
            });
            assertEquals(12, ended.get());
        });
    }

    /** While it waits, the par's fiber shows what it waits on: its branches' end, and how many still run. */
    @Test
    @Timeout(10)
    void aWaitingParShowsHowManyBranchesRun() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                One2OneChannel<Integer> first = Channel.one2one();
                One2OneChannel<Integer> second = Channel.one2one();
                Fiber par = Weft.spawn(() -> Parallel.run(() -> first.in().read(), () -> second.in().read()));
                Schedulers.awaitParked(par);
                assertEquals("the end of a par's 2 branches (2 running)", String.valueOf(FiberProbe.blocker(par)));
                first.out().write(1);
                while (!String.valueOf(FiberProbe.blocker(par)).endsWith("(1 running)")) {
                    Fiber.yield();
                }
                assertTrue(FiberProbe.isParked(par), "one branch still runs");
                second.out().write(2);
                par.join();
            });
        }
    }

    @Test
    @Timeout(10)
    void rethrowsTheFirstFailureWithTheOthersSuppressed() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> order = Channel.one2one();
            IllegalStateException first = new IllegalStateException("first");
            IllegalArgumentException second = new IllegalArgumentException("second");
            AtomicReference<Throwable> caught = new AtomicReference<>();
            AtomicInteger finished = new AtomicInteger();
            AtomicInteger cleanedUp = new AtomicInteger();
            Weft.run(s, () -> {
                try {
                    Parallel.run(
                            () -> { // first, so that it has started (a branch cancelled before it starts never runs)
                                try {
                                    Timer.sleep(Duration.ofHours(1));
                                    finished.incrementAndGet();
                                } finally {
                                    cleanedUp.incrementAndGet();
                                }
                            },
                            () -> { order.in().read(); throw second; },
                            () -> { order.out().write(1); throw first; });
                } catch (RuntimeException e) {
                    caught.set(e);
                }
            });
            assertSame(first, caught.get());
            assertEquals(1, first.getSuppressed().length, "the sleeper's cancellation is not a failure");
            assertSame(second, first.getSuppressed()[0]);
            assertEquals(0, finished.get(), "the failure cancelled the sleeping sibling");
            assertEquals(1, cleanedUp.get(), "the par waited for the cancelled sibling to unwind");
        }
    }

    @Test
    @Timeout(10)
    void weftRunRethrowsTheVeryExceptionOfMain() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            UnsupportedOperationException boom = new UnsupportedOperationException("boom");
            RuntimeException e = assertThrows(RuntimeException.class, () -> Weft.run(s, () -> {
                Timer.sleep(Duration.ofMillis(1));
                throw boom;
            }));
            assertSame(boom, e);
        }
    }

    /** One joiner is kept without a list, more in one: every one of them resumes, from fibers and threads. */
    @Test
    @Timeout(30)
    void everyJoinerOfAFiberResumes() {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = Scheduler.create(workers)) {
                for (int round = 0; round < 100; round++) {
                    AtomicInteger resumed = new AtomicInteger();
                    One2OneChannel<Integer> go = Channel.one2one();
                    Weft.run(s, () -> {
                        Fiber target = Weft.spawn(() -> go.in().read());
                        CSProcess joiner = () -> {
                            target.join();
                            resumed.incrementAndGet();
                        };
                        Parallel.run(joiner, joiner, joiner, () -> go.out().write(1));
                    });
                    assertEquals(3, resumed.get(), "round " + round + " on " + workers + " workers");
                }
            }
        }
    }

    @Test
    @Timeout(10)
    void joinRethrowsWhatTheFiberThrew() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            AtomicReference<Throwable> caught = new AtomicReference<>();
            Weft.run(s, () -> {
                Fiber f = Weft.spawn(() -> {
                    Timer.sleep(Duration.ofMillis(1));
                    throw new IllegalStateException("in the fiber");
                });
                try {
                    f.join();
                } catch (IllegalStateException e) {
                    caught.set(e);
                }
                assertTrue(f.isDone());
            });
            assertEquals("in the fiber", caught.get().getMessage());
        }
    }

    @Test
    @Timeout(10)
    void fromAPlainThread() {
        AtomicInteger done = new AtomicInteger();
        Parallel.run(done::incrementAndGet, done::incrementAndGet);
        assertEquals(2, done.get());
    }

    @Test
    void badRangeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Parallel.forRange(3, 2, i -> { }));
        assertTrue(e.getMessage().contains("from"));
    }
}
