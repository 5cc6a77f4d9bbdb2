package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BarrierTest {
    private static final int PROCESSES = 64;

    @Test
    @Timeout(30)
    void lockStepOnOneWorker() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            lockStep(s, 10_000);
        }
    }

    @Test
    @Timeout(60)
    void lockStepOnTwoWorkers() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < 20; i++) {
                lockStep(s, 500);
            }
        }
    }

    /** No process passes round r before all have arrived at it, and none runs two rounds ahead. */
    private static void lockStep(Scheduler s, int rounds) {
        Barrier barrier = new Barrier(PROCESSES);
        AtomicInteger arrivals = new AtomicInteger();
        AtomicReference<String> violation = new AtomicReference<>();
        Weft.run(s, () -> Parallel.forRange(0, PROCESSES, i -> {
            for (int r = 0; r < rounds; r++) {
                arrivals.incrementAndGet();
                barrier.sync();
                int seen = arrivals.get();
                if (seen < (r + 1) * PROCESSES || seen > (r + 2) * PROCESSES) {
                    violation.compareAndSet(null, "process " + i + " saw " + seen + " arrivals after round " + r);
                }
            }
        }));
        assertEquals(null, violation.get());
        assertEquals(rounds * PROCESSES, arrivals.get());
    }

    @Test
    @Timeout(10)
    void resignReleasesTheOthers() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Barrier barrier = new Barrier(3);
            AtomicInteger passed = new AtomicInteger();
            Weft.run(s, () -> {
                Fiber a = Weft.spawn(() -> { barrier.sync(); passed.incrementAndGet(); });
                Fiber b = Weft.spawn(() -> { barrier.sync(); passed.incrementAndGet(); });
                Timer.sleep(java.time.Duration.ofMillis(1)); // both are waiting once the sleep ends
                assertEquals(0, passed.get());
                barrier.resign();
                a.join();
                b.join();
            });
            assertEquals(2, passed.get());
        }
    }

    @Test
    @Timeout(10)
    void fibersAndThreadsMeet() throws Exception {
        Barrier barrier = new Barrier(3);
        AtomicInteger after = new AtomicInteger();
        Thread t = new Thread(() -> {
            for (int r = 0; r < 100; r++) {
                barrier.sync();
            }
            after.incrementAndGet();
        });
        t.start();
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> Parallel.run(
                    () -> { for (int r = 0; r < 100; r++) barrier.sync(); after.incrementAndGet(); },
                    () -> { for (int r = 0; r < 100; r++) barrier.sync(); after.incrementAndGet(); }));
        }
        t.join(5_000);
        assertEquals(3, after.get());
    }

    @Test
    void enrollMakesRoundsWait() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Barrier barrier = new Barrier(1);
            barrier.enroll();
            AtomicInteger order = new AtomicInteger();
            int[] seen = new int[2];
            Weft.run(s, () -> Parallel.run(
                    () -> { barrier.sync(); seen[0] = order.incrementAndGet(); },
                    () -> { Timer.sleep(java.time.Duration.ofMillis(2)); seen[1] = order.incrementAndGet(); barrier.sync(); }));
            assertTrue(seen[0] > seen[1], "the first process waited for the enrolled second one");
        }
    }

    @Test
    void badUseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Barrier(-1));
        Barrier none = new Barrier(0);
        IllegalStateException resign = assertThrows(IllegalStateException.class, none::resign);
        assertTrue(resign.getMessage().contains("no enrolled"));
        assertThrows(IllegalStateException.class, none::sync);
    }
}
