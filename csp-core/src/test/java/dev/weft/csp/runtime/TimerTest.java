package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TimerTest {
    @Test
    @Timeout(20)
    void thousandsOfSleepersShareOneCarrier() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            int threadsBefore = Thread.activeCount();
            AtomicInteger woke = new AtomicInteger();
            long start = System.nanoTime();
            Weft.run(s, () -> Parallel.forRange(0, 5_000, i -> {
                Timer.sleep(Duration.ofMillis(100 + i % 50));
                woke.incrementAndGet();
            }));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(5_000, woke.get());
            assertTrue(ms >= 149 && ms < 5_000, "took " + ms + " ms");
            assertTrue(Thread.activeCount() <= threadsBefore + 1, "sleeping made threads");
        }
    }

    @Test
    @Timeout(20)
    void sleepersWakeInDeadlineOrder() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            StringBuffer order = new StringBuffer();
            // Deadlines from one instant, well ahead: on a loaded machine the branches may begin their sleeps
            // 10 ms apart (relative sleeps would then be due in another order), and all three may fire at once.
            long at = System.nanoTime() + 500_000_000L;
            Weft.run(s, () -> Parallel.run(
                    () -> { Timer.sleepUntil(at + 20_000_000L); order.append('c'); },
                    () -> { Timer.sleepUntil(at); order.append('a'); },
                    () -> { Timer.sleepUntil(at + 10_000_000L); order.append('b'); }));
            assertEquals("abc", order.toString());
        }
    }

    @Test
    @Timeout(30)
    void aSleeperWakesOnTimeWhileAnotherFiberHogsACarrier() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int trial = 0; trial < 5; trial++) {
                AtomicBoolean woke = new AtomicBoolean();
                AtomicLong late = new AtomicLong();
                Weft.run(s, () -> {
                    Fiber sleeper = Weft.spawn(() -> {
                        long due = System.nanoTime() + 20_000_000L;
                        Timer.sleepUntil(due);
                        late.set(System.nanoTime() - due);
                        woke.set(true);
                    });
                    // Never pauses until the sleeper woke (or 5 s passed): its carrier fires no timer meanwhile.
                    long giveUp = System.nanoTime() + 5_000_000_000L;
                    while (!woke.get() && System.nanoTime() - giveUp < 0) {
                        Thread.onSpinWait();
                    }
                    sleeper.join();
                });
                assertTrue(woke.get() && late.get() < 1_000_000_000L, "woke " + late.get() / 1_000_000 + " ms late");
            }
        }
    }
}
