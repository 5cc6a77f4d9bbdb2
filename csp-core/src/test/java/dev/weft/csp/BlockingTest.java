package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BlockingTest {
    @Test
    @Timeout(20)
    void otherFibersOfTheOnlyCarrierRunWhileACallBlocks() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger ticks = new AtomicInteger();
            AtomicReference<Integer> result = new AtomicReference<>();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            Weft.run(s, () -> Parallel.run(
                    () -> result.set(Weft.blocking(uncheckedCall(() -> {
                        ranOn.set(Thread.currentThread());
                        release.await(); // only the other fiber, on the same carrier, can release it
                        return 42;
                    }))),
                    () -> {
                        for (int i = 0; i < 10; i++) {
                            Timer.sleep(Duration.ofMillis(1));
                            ticks.incrementAndGet();
                        }
                        release.countDown();
                    }));
            assertEquals(42, result.get());
            assertEquals(10, ticks.get());
            assertTrue(ranOn.get().getName().startsWith("weft-blocking-"), ranOn.get().getName());
            assertTrue(ranOn.get().isDaemon());
        }
    }

    @Test
    @Timeout(20)
    void manyCallsAtOnceOnTwoWorkers() {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicInteger sum = new AtomicInteger();
            Weft.run(s, () -> Parallel.forRange(0, 200, i -> {
                int v = Weft.blocking(uncheckedCall(() -> {
                    Thread.sleep(5);
                    return i;
                }));
                sum.addAndGet(v);
            }));
            assertEquals(199 * 200 / 2, sum.get());
        }
    }

    @Pausable
    static void readTheDisk(IOException io) throws IOException {
        Weft.blockingChecked(() -> failWith(io));
    }

    /** The exception's own stack is the blocking-call thread's; a suppressed one shows where the fiber called. */
    @Test
    @Timeout(10)
    void theCallsExceptionCarriesTheCallingFibersStack() {
        IOException io = new IOException("disk gone");
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                try {
                    readTheDisk(io);
                } catch (IOException e) {
                    assertSame(io, e);
                }
            });
        }
        Throwable[] suppressed = io.getSuppressed();
        assertEquals(1, suppressed.length);
        assertTrue(suppressed[0].getMessage().contains("in Weft.blocking, from:"), suppressed[0].getMessage());
        boolean fromReadTheDisk = false;
        for (StackTraceElement e : suppressed[0].getStackTrace()) {
            fromReadTheDisk |= e.getMethodName().equals("readTheDisk");
        }
        assertTrue(fromReadTheDisk, "the fiber's frames: " + java.util.Arrays.toString(suppressed[0].getStackTrace()));
    }

    @Test
    @Timeout(10)
    void theCallsExceptionIsRethrownAsItIs() {
        IOException io = new IOException("disk gone");
        IllegalStateException ise = new IllegalStateException("bad");
        AssertionError error = new AssertionError("worse");
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                Exception caught = null;
                try {
                    Weft.blocking(() -> {
                        throw io;
                    });
                } catch (Exception e) {
                    caught = e;
                }
                assertSame(io, caught);
                RuntimeException unchecked = null;
                try {
                    call(() -> {
                        throw ise;
                    });
                } catch (IllegalStateException e) {
                    unchecked = e;
                }
                assertSame(ise, unchecked);
            });
            assertSame(error, assertThrows(AssertionError.class, () -> Weft.run(s, () -> Weft.blocking(() -> {
                throw error;
            }))));
        }
    }

    @Pausable
    private static Object call(Callable<Object> c) {
        return Weft.blocking(c);
    }

    /** A call whose checked exception is rethrown undeclared: the {@code Callable} overload. */
    private static <T> Callable<T> uncheckedCall(Callable<T> c) {
        return c;
    }

    @Test
    @Timeout(10)
    void aCheckedExceptionIsCaughtAsItselfInAFiberAndOnAPlainThread() {
        IOException io = new IOException("disk gone");
        AtomicReference<IOException> caughtInFiber = new AtomicReference<>();
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                try {
                    Weft.blockingChecked(() -> failWith(io));
                } catch (IOException e) {
                    caughtInFiber.set(e);
                }
            });
        }
        assertSame(io, caughtInFiber.get());
        IOException caughtOnThread = null;
        try {
            Weft.blockingChecked(() -> failWith(io));
        } catch (IOException e) {
            caughtOnThread = e;
        }
        assertSame(io, caughtOnThread);
    }

    @Test
    @Timeout(10)
    void aCallThatThrowsNothingCheckedNeedsNoCatch() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            AtomicInteger got = new AtomicInteger();
            Weft.run(s, () -> got.set(Weft.blocking(() -> 7)));
            assertEquals(7, got.get());
        }
    }

    private static String failWith(IOException e) throws IOException {
        throw e;
    }

    @Test
    @Timeout(10)
    void fromAPlainThreadTheCallRunsOnThatThread() throws Exception {
        Thread me = Thread.currentThread();
        assertSame(me, Weft.blocking(Thread::currentThread));
        IOException io = new IOException("x");
        Exception caught = null;
        try {
            Weft.blocking(() -> {
                throw io;
            });
        } catch (Exception e) {
            caught = e;
        }
        assertSame(io, caught);
    }

    @Test
    @Timeout(10)
    void aBlockingCallShowsInTheFiberDump() throws Exception {
        try (Scheduler s = Scheduler.singleThreaded()) {
            CountDownLatch inCall = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread runner = new Thread(() -> Weft.run(s, () -> Weft.blocking(uncheckedCall(() -> {
                inCall.countDown();
                release.await();
                return null;
            }))));
            runner.start();
            inCall.await();
            String dump = s.dumpFibers();
            while (!dump.contains("parked")) { // the fiber pauses right after handing the call over
                Thread.onSpinWait();
                dump = s.dumpFibers();
            }
            release.countDown();
            runner.join();
            assertTrue(dump.contains("parked, waiting on Weft.blocking("), dump);
            assertTrue(dump.contains("at dev.weft.csp.Weft.blocking(Weft.java:"), dump);
        }
    }
}
