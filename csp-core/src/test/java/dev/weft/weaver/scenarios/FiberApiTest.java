package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Spawn, join, sleep and many fibers from inside woven code. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FiberApiTest {

    @Pausable
    static String spawnJoinAndChannel(Source in) {
        int x = in.next();
        long wide = in.nextLong();
        One2OneChannel<Long> ch = Channel.one2one();
        Fiber child = Weft.spawn(() -> {
            Timer.sleep(Duration.ofMillis(1));
            ch.out().write(x * 2L);
            ch.out().write(wide + 1);
        });
        long a = ch.in().read();
        long b = ch.in().read();
        child.join();
        return a + "," + b + "," + child.isDone() + "," + in.next();
    }

    @Test
    void spawnJoinAndChannelInsideScenario() {
        check(new int[] {21, 5, 9}, 42 + "," + (Source.wide(5) + 1) + ",true,9", 10, FiberApiTest::spawnJoinAndChannel);
    }

    @Pausable
    static double sleeps(Source in) {
        long a = in.nextLong();
        float f = 1.5f;
        Timer.sleep(Duration.ofMillis(2));
        double d = in.nextDouble();
        char c = 'z';
        Timer.sleep(Duration.ofMillis(1));
        Timer.sleep(Duration.ZERO);
        return a + d * f + c;
    }

    @Test
    void timerSleepWithLiveLocals() {
        check(new int[] {3, 4}, Source.wide(3) + Source.fraction(4) * 1.5f + 'z', 10, FiberApiTest::sleeps);
    }

    @Pausable
    static String joinRethrows(Source in) {
        int v = in.next();
        Fiber child = Weft.spawn(() -> {
            Timer.sleep(Duration.ofMillis(1));
            throw new IllegalStateException("child" + v);
        });
        try {
            child.join();
            return "no exception";
        } catch (IllegalStateException e) {
            return e.getMessage() + ":" + in.next();
        }
    }

    @Test
    void joinRethrowsChildFailureAfterPause() {
        check(new int[] {4, 5}, "child4:5", 10, FiberApiTest::joinRethrows);
    }

    @Pausable
    static long pipeline(Source in) {
        One2OneChannel<Long> a = Channel.one2one();
        One2OneChannel<Long> b = Channel.one2one();
        One2OneChannel<Long> c = Channel.one2one();
        int n = in.next();
        Weft.spawn(() -> {
            for (int i = 0; i < n; i++) {
                b.out().write(a.in().read() * 3);
            }
        });
        Weft.spawn(() -> {
            long offset = 1L << 33;
            for (int i = 0; i < n; i++) {
                c.out().write(b.in().read() + offset);
            }
        });
        long sum = 0;
        for (int i = 0; i < n; i++) {
            a.out().write((long) in.next());
            sum = sum * 7 + c.in().read();
        }
        return sum;
    }

    @Test
    void pipelineOfSpawnedFibers() {
        int[] in = {5, 1, 2, 3, 4, 5};
        long sum = 0;
        for (int i = 1; i <= 5; i++) {
            sum = sum * 7 + (in[i] * 3L + (1L << 33));
        }
        check(in, sum, 20, FiberApiTest::pipeline);
    }

    @Pausable
    static int waitOnPoisoned(ChannelInput<Integer> ch, long pad) {
        int v = ch.read();
        return (int) (v + pad);
    }

    @Pausable
    static String poisonWhilePaused(Source in) {
        One2OneChannel<Integer> ch = Channel.one2one();
        int k = in.next();
        Weft.spawn(() -> {
            Timer.sleep(Duration.ofMillis(1));
            ch.in().poison();
        });
        String tag = "t" + k;
        try {
            return "read " + waitOnPoisoned(ch.in(), 1L << 40);
        } catch (PoisonException e) {
            return tag + " poisoned " + in.next();
        }
    }

    @Test
    void poisonWakesPausedReaderWithExceptionThroughWovenFrames() {
        check(new int[] {3, 4}, "t3 poisoned 4", 10, FiberApiTest::poisonWhilePaused);
    }

    private static final int MANY = 10_000;

    /** Each fiber reads its own channel; all of them are parked before the first value is written. */
    @Test
    void tenThousandFibersEachPausing() {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers)) {
                long[] results = new long[MANY];
                Weft.run(s, () -> {
                    @SuppressWarnings({"unchecked", "rawtypes"})
                    One2OneChannel<Integer>[] chans = new One2OneChannel[MANY];
                    Fiber[] fibers = new Fiber[MANY];
                    for (int i = 0; i < MANY; i++) {
                        One2OneChannel<Integer> ch = Channel.one2one();
                        chans[i] = ch;
                        int index = i;
                        fibers[i] = Weft.spawn(() -> {
                            long wide = index * 3_000_000_000L;
                            int v = ch.in().read();
                            results[index] = wide + v;
                        });
                    }
                    One2OneChannel<Integer> go = Channel.one2one();
                    Weft.spawn(() -> go.out().write(1));
                    go.in().read();
                    for (int i = 0; i < MANY; i++) {
                        chans[i].out().write(i * 2);
                    }
                    for (Fiber f : fibers) {
                        f.join();
                    }
                });
                long[] expected = new long[MANY];
                for (int i = 0; i < MANY; i++) {
                    expected[i] = i * 3_000_000_000L + i * 2;
                }
                assertArrayEquals(expected, results, s.workers() + " workers");
            }
        }
    }
}
