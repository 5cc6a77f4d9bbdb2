package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.FiberProbe;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thread mode is interruptible: a plain thread blocked in a pausable operation that is interrupted throws
 * {@link CancelledException}, keeps its interrupt status, and leaves the primitive as if it had never come.
 * Before, it spun a core until released, and a JUnit timeout could not stop it.
 */
class InterruptTest {
    private static final int ITERATIONS = 50;

    /** Runs {@code blocked} on a new thread, interrupts it once it blocks, and checks how it ended. */
    private static void interruptWhileBlocked(Runnable blocked) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean statusKept = new AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                blocked.run();
            } catch (Throwable e) {
                thrown.set(e);
                statusKept.set(Thread.currentThread().isInterrupted());
            }
        }, "blocked");
        t.start();
        Schedulers.awaitBlocked(t);
        t.interrupt();
        t.join();
        assertInstanceOf(CancelledException.class, thrown.get());
        assertTrue(statusKept.get(), "the interrupt status is kept");
    }

    @Test
    @Timeout(60)
    void anInterruptedReadThrowsAndTakesNothing() throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            One2OneChannel<Integer> c = Channel.one2one();
            interruptWhileBlocked(() -> c.in().read());
            Thread writer = new Thread(() -> c.out().write(1));
            writer.start();
            assertEquals(1, c.in().read(), "the interrupted read took nothing");
            writer.join();
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedWriteThrowsAndDeliversNothing() throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            One2OneChannel<Integer> c = Channel.one2one();
            interruptWhileBlocked(() -> c.out().write(1));
            assertFalse(c.in().pending(), "the interrupted write delivered nothing");
            Thread writer = new Thread(() -> c.out().write(2));
            writer.start();
            assertEquals(2, c.in().read());
            writer.join();
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedSelectThrowsAndLeavesNoRegistration() throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            One2OneChannel<Integer> a = Channel.one2one();
            One2OneChannel<Integer> b = Channel.one2one();
            interruptWhileBlocked(() -> new Alternative(a.in(), b.in()).select());
            Thread writer = new Thread(() -> a.out().write(3));
            writer.start();
            assertEquals(3, a.in().read(), "the interrupted select left no registration behind");
            writer.join();
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedSelectWithATimeoutThrows() throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            One2OneChannel<Integer> a = Channel.one2one();
            interruptWhileBlocked(() -> new Alternative(a.in(), Guards.timeout(Duration.ofHours(1))).select());
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedSyncThrowsAndWithdrawsItsArrival() throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            Barrier barrier = new Barrier(2);
            interruptWhileBlocked(barrier::sync);
            // Its arrival was withdrawn: a round still needs two parties.
            Thread other = new Thread(barrier::sync);
            other.start();
            Schedulers.awaitBlocked(other);
            barrier.sync();
            other.join();
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedSleepThrows() throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            interruptWhileBlocked(() -> Timer.sleep(Duration.ofHours(1)));
            interruptWhileBlocked(() -> Timer.sleep(Duration.ofSeconds(Long.MAX_VALUE)));
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedJoinThrowsAndLeavesTheTargetAlone() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < ITERATIONS; i++) {
                One2OneChannel<Integer> gate = Channel.one2one();
                AtomicReference<Fiber> target = new AtomicReference<>();
                Thread runner = new Thread(() -> Weft.run(s, () -> target.set(Weft.spawn(() -> gate.in().read()))));
                runner.start();
                while (target.get() == null) {
                    Thread.onSpinWait();
                }
                interruptWhileBlocked(() -> target.get().join());
                gate.out().write(1);
                runner.join();
                target.get().join(); // the target ended normally, untouched by the interrupted joiner
            }
        }
    }

    @Test
    @Timeout(60)
    void anOperationOnAnInterruptedThreadThrowsAtOnce() {
        One2OneChannel<Integer> c = Channel.one2one(1);
        Thread.currentThread().interrupt();
        try {
            c.out().write(1);
            throw new AssertionError("write returned");
        } catch (CancelledException expected) {
            assertTrue(Thread.interrupted());
        }
        assertFalse(c.in().pending());
    }

    @Test
    @Timeout(60)
    void weftRunInterruptedCancelsItsFibers() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicBoolean cleanedUp = new AtomicBoolean();
            AtomicReference<Fiber> sleeper = new AtomicReference<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicBoolean statusKept = new AtomicBoolean();
            Thread t = new Thread(() -> {
                try {
                    Weft.run(s, () -> {
                        sleeper.set(Fiber.current());
                        try {
                            Timer.sleep(Duration.ofHours(1));
                        } finally {
                            cleanedUp.set(true);
                        }
                    });
                } catch (Throwable e) {
                    thrown.set(e);
                    statusKept.set(Thread.currentThread().isInterrupted());
                }
            });
            t.start();
            while (sleeper.get() == null || !FiberProbe.isParked(sleeper.get())) {
                Thread.onSpinWait();
            }
            t.interrupt();
            t.join();
            assertInstanceOf(CancelledException.class, thrown.get());
            assertTrue(statusKept.get());
            assertTrue(cleanedUp.get(), "the run's fibers were cancelled and had ended when Weft.run returned");
        }
    }
}
