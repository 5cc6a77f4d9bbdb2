package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Idle carriers park: while every fiber sleeps, the carriers use (almost) no CPU. */
class IdleCpuTest {
    private static final long WAIT_MS = 400;

    @Test
    @Timeout(30)
    void carriersUseNoCpuWhileFibersSleep() {
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1))); // carriers started and warm
            List<Thread> carriers = Carriers.of(s);
            assertEquals(2, carriers.size());
            long before = Carriers.cpuNanos(carriers);
            long start = System.nanoTime();
            Weft.run(s, () -> Timer.sleep(Duration.ofMillis(WAIT_MS)));
            long elapsed = System.nanoTime() - start;
            long used = Carriers.cpuNanos(carriers) - before;
            assertTrue(elapsed >= WAIT_MS * 1_000_000, "slept too short");
            // Spinning for work would use 2 x 400 ms; parking uses microseconds per wake-up.
            assertTrue(used < 40_000_000L, "carriers used " + used / 1_000_000 + " ms of CPU in "
                    + elapsed / 1_000_000 + " ms of sleep");
        }
    }

    @Test
    @Timeout(30)
    void carriersUseNoCpuWhileAFiberWaitsForAThread() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            dev.weft.csp.One2OneChannel<Integer> c = dev.weft.csp.Channel.one2one();
            Thread feeder = new Thread(() -> {
                try {
                    Thread.sleep(WAIT_MS); // a plain thread, not a carrier: what it does is not measured
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.out().write(1);
            });
            Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1)));
            List<Thread> carriers = Carriers.of(s);
            long before = Carriers.cpuNanos(carriers);
            feeder.start();
            Weft.run(s, () -> c.in().read());
            long used = Carriers.cpuNanos(carriers) - before;
            feeder.join();
            assertTrue(used < 40_000_000L, "carriers used " + used / 1_000_000 + " ms of CPU while idle");
        }
    }
}
