package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.FiberProbe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How runs and schedulers begin and end: nothing hangs, nothing is stranded, a carrier survives failures. */
class LifecycleTest {
    @Test
    @Timeout(30)
    void aPlainThreadHandsWorkToASchedulerWithoutWaiting() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Fiber f = Weft.spawn(s, () -> c.out().write(42)); // returns at once: this thread reads next
            assertEquals(42, c.in().read());
            f.join();
            assertTrue(f.isDone());
        });
        Scheduler closed = Scheduler.singleThreaded();
        closed.close();
        assertThrows(IllegalStateException.class, () -> Weft.spawn(closed, () -> { }));
    }

    @Test
    @Timeout(60)
    void weftRunInsideAFiberFailsAtOnce() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Weft.run(s, () -> {
                try {
                    Weft.run(s, () -> { });
                } catch (IllegalStateException e) {
                    thrown.set(e);
                }
            });
            assertInstanceOf(IllegalStateException.class, thrown.get());
            assertTrue(thrown.get().getMessage().contains("Weft.run called from a fiber"), thrown.get().getMessage());
        });
    }

    @Test
    @Timeout(60)
    void closeNeverStrandsAFiberThatAPlainThreadWillWake() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            for (int i = 0; i < 20; i++) {
                Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers);
                One2OneChannel<Integer> ch = Channel.one2one();
                AtomicInteger got = new AtomicInteger();
                AtomicReference<Fiber> reader = new AtomicReference<>();
                Thread runner = new Thread(() -> Weft.run(s, () -> {
                    reader.set(Fiber.current());
                    got.set(ch.in().read());
                }));
                runner.start();
                while (reader.get() == null || !FiberProbe.isParked(reader.get())) {
                    Thread.onSpinWait();
                }
                s.close(); // returns at once; the reader can still be woken, so the carriers stay
                ch.out().write(42);
                runner.join();
                assertEquals(42, got.get(), "the value was read and Weft.run returned");
                while (!s.pool.isTerminated()) { // then, with no fiber left, the carriers stop
                    Thread.onSpinWait();
                }
            }
        }
    }

    @Test
    @Timeout(60)
    void aSpawnRefusedAfterCloseLeavesNoRunWaiting() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            Scheduler s = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers);
            One2OneChannel<Integer> go = Channel.one2one();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Fiber> main = new AtomicReference<>();
            Thread runner = new Thread(() -> {
                try {
                    Weft.run(s, () -> {
                        main.set(Fiber.current());
                        go.in().read();
                        Weft.spawn(() -> { });
                    });
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            runner.start();
            while (main.get() == null || !FiberProbe.isParked(main.get())) {
                Thread.onSpinWait();
            }
            s.close();
            go.out().write(1);
            runner.join();
            assertInstanceOf(IllegalStateException.class, thrown.get());
            assertTrue(thrown.get().getMessage().contains("closed"), thrown.get().getMessage());
            assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> { }));
        }
    }

    /** An exception whose every description fails as the heap would when it is exhausted. */
    private static final class Unprintable extends RuntimeException {
        @Override
        public String getMessage() {
            throw new OutOfMemoryError("Java heap space (simulated)");
        }

        @Override
        public String toString() {
            throw new OutOfMemoryError("Java heap space (simulated)");
        }
    }

    @Test
    @Timeout(60)
    void aCarrierSurvivesAnOutOfMemoryErrorWhileReportingAFailure() {
        PrintStream err = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            Schedulers.onOneAndTwoWorkers(5, s -> {
                Weft.run(s, () -> {
                    Fiber f = Weft.spawn(() -> {
                        throw new Unprintable();
                    });
                    while (!f.isDone()) {
                        Fiber.yield();
                    }
                });
                AtomicInteger n = new AtomicInteger();
                Weft.run(s, () -> Parallel.forRange(0, 8, i -> n.incrementAndGet()));
                assertEquals(8, n.get(), "the carriers are still there");
            });
        } finally {
            System.setErr(err);
        }
    }
}
