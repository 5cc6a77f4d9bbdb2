package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Weft#async} and {@link Task}, and timed joins ({@link Fiber#join(Duration)}), fiber and thread mode. */
class TaskTest {
    private static final int ITERATIONS = Integer.getInteger("weft.taskTest.iterations", 50);

    @Pausable
    private static int sum(int from, int to) {
        One2OneChannel<Integer> c = Channel.one2one();
        Weft.spawn(() -> {
            for (int i = from; i < to; i++) {
                c.out().write(i);
            }
        });
        int s = 0;
        for (int i = from; i < to; i++) {
            s += c.in().read();
        }
        return s;
    }

    @Test
    @Timeout(60)
    void aTaskGivesItsValue() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            Task<Integer> left = Weft.async(() -> sum(0, 500));
            Task<Integer> right = Weft.async(() -> sum(500, 1000));
            assertEquals(999 * 1000 / 2, left.join() + right.join());
            assertTrue(left.isDone());
            assertEquals(left.join(), left.join(), "a second join gives the same value");
        }));
    }

    @Test
    @Timeout(60)
    void aTaskRethrowsWhatItThrewAndACancelledOneSaysSo() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            Task<String> failing = Weft.async(() -> {
                throw new IllegalStateException("no value");
            });
            try {
                failing.join();
                fail("the failure was lost");
            } catch (IllegalStateException expected) {
                assertEquals("no value", expected.getMessage());
            }
            One2OneChannel<String> never = Channel.one2one();
            Task<String> waiting = Weft.async(() -> never.in().read());
            Schedulers.awaitParked(waiting.fiber());
            waiting.cancel();
            try {
                waiting.join();
                fail("a cancelled task gave a value");
            } catch (CancelledException expected) {
                // cancelled
            }
        }));
    }

    @Test
    @Timeout(60)
    void aTimedJoinSaysWhetherTheFiberEnded() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> go = Channel.one2one();
            Task<Integer> t = Weft.async(() -> go.in().read() * 2);
            assertFalse(t.join(Duration.ZERO), "only looks");
            assertFalse(t.join(Duration.ofMillis(5)), "still waiting for its input");
            go.out().write(21);
            assertTrue(t.join(Duration.ofSeconds(Long.MAX_VALUE)));
            assertEquals(42, t.join());

            Fiber failing = Weft.spawn(() -> {
                throw new IllegalArgumentException("failed in time");
            });
            try {
                failing.join(Duration.ofMinutes(1));
                fail("the failure was lost");
            } catch (IllegalArgumentException expected) {
                assertEquals("failed in time", expected.getMessage());
            }
        }));
    }

    @Test
    @Timeout(60)
    void aCancelledTimedJoinLeavesTheFiberRunning() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> go = Channel.one2one();
            Fiber target = Weft.spawn(() -> go.in().read());
            Fiber joiner = Weft.spawn(() -> target.join(Duration.ofMinutes(10)));
            Schedulers.awaitParked(joiner);
            joiner.cancel();
            try {
                joiner.join();
                fail("the cancelled join returned");
            } catch (CancelledException expected) {
                // withdrawn from the target's joiners
            }
            go.out().write(1);
            target.join();
        }));
    }

    @Test
    @Timeout(60)
    void timedJoinsFromAPlainThread() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            One2OneChannel<Integer> go = Channel.one2one();
            Fiber target = Weft.spawn(s, () -> go.in().read());
            assertFalse(target.join(Duration.ofMillis(5)));
            AtomicReference<Throwable> interrupted = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    target.join(Duration.ofMinutes(10));
                } catch (Throwable e) {
                    interrupted.set(e);
                }
            });
            waiter.start();
            Schedulers.awaitBlocked(waiter);
            waiter.interrupt();
            waiter.join();
            assertTrue(interrupted.get() instanceof CancelledException, String.valueOf(interrupted.get()));
            go.out().write(1);
            assertTrue(target.join(Duration.ofMinutes(1)));
            assertTrue(Weft.async(() -> "done").join(Duration.ofMinutes(1)));
        }
    }
}
