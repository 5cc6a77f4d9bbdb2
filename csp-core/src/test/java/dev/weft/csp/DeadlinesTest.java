package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Durations and deadlines saturate: zero and negative mean now, huge ones mean never, nothing overflows
 * (before: ArithmeticException for huge durations, ~292 years of sleep for Long.MIN_VALUE). And a select's
 * timer leaves the heap when the select ends (before: 1M selects with a 1 h timeout retained 165 MB, and hid
 * real deadlocks while they were pending).
 */
class DeadlinesTest {
    private static final List<Duration> HUGE = List.of(Duration.ofSeconds(Long.MAX_VALUE),
            Duration.ofDays(365_000), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));

    @Test
    @Timeout(60)
    void hugeSleepsLastUntilCancelled() {
        Schedulers.onOneAndTwoWorkers(5, s -> {
            for (Duration d : HUGE) {
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                Weft.run(s, () -> {
                    Fiber f = Weft.spawn(() -> {
                        try {
                            Timer.sleep(d);
                        } catch (Throwable t) {
                            thrown.set(t);
                        }
                    });
                    Schedulers.awaitParked(f);
                    f.cancel();
                    f.join();
                });
                assertInstanceOf(CancelledException.class, thrown.get(), d.toString());
            }
        });
    }

    @Test
    @Timeout(60)
    void zeroNegativeAndMinimalDeadlinesMeanNow() {
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            Timer.sleep(Duration.ZERO);
            Timer.sleep(Duration.ofSeconds(-5));
            Timer.sleep(Duration.ofSeconds(Long.MIN_VALUE));
            Timer.sleepUntil(Long.MIN_VALUE);
            Timer.sleepUntil(System.nanoTime() - 1);
        }));
        Timer.sleepUntil(Long.MIN_VALUE); // thread mode
        Timer.sleep(Duration.ofSeconds(Long.MIN_VALUE));
    }

    @Test
    @Timeout(60)
    void timeGuardsSaturate() {
        One2OneChannel<Integer> c = Channel.one2one();
        assertEquals(0, new Alternative(Guards.deadline(Long.MIN_VALUE), c.in()).selectNow());
        assertEquals(-1, new Alternative(Guards.deadline(Long.MAX_VALUE), c.in()).selectNow());
        assertEquals(0, new Alternative(Guards.timeout(Duration.ofSeconds(-1)), c.in()).selectNow());
        for (Duration d : HUGE) {
            assertEquals(-1, new Alternative(Guards.timeout(d), c.in()).selectNow(), d.toString());
        }
    }

    @Test
    @Timeout(60)
    void aSelectWithAHugeTimeoutWaitsForItsPartner() {
        Schedulers.onOneAndTwoWorkers(5, s -> {
            for (Duration d : HUGE) {
                AtomicInteger got = new AtomicInteger();
                Weft.run(s, () -> {
                    One2OneChannel<Integer> c = Channel.one2one();
                    Weft.spawn(() -> c.out().write(8));
                    Alternative alt = new Alternative(Guards.timeout(d), c.in());
                    assertEquals(1, alt.select());
                    got.set(c.in().read());
                });
                assertEquals(8, got.get());
            }
        });
    }

    @Test
    @Timeout(120)
    void aSelectThatAPartnerEndsLeavesNoTimerBehind() {
        Schedulers.onOneAndTwoWorkers(2, s -> {
            int n = 20_000;
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Weft.spawn(() -> {
                    for (int i = 0; i < n; i++) {
                        c.out().write(i);
                    }
                });
                Alternative alt = new Alternative(c.in(), Guards.timeout(Duration.ofHours(1)));
                for (int i = 0; i < n; i++) {
                    assertEquals(0, alt.select());
                    c.in().read();
                }
            });
            assertEquals(0, s.pool.pendingTimers(), "every select's timer left the heap");
            // With no stale timer pending, a real deadlock is reported at once.
            try {
                Weft.run(s, () -> new Barrier(2).sync());
                throw new AssertionError("no deadlock reported");
            } catch (DeadlockException expected) {
                assertTrue(expected.getMessage().contains("barrier"), expected.getMessage());
            }
        });
    }
}
