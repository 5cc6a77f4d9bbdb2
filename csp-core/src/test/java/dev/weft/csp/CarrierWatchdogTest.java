package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The carrier watchdog warns of user code that blocks a carrier (a sleep, a lock, blocking I/O), once per
 * slice, naming the fiber with its own stack; and of nothing else: not an idle carrier, not Weft's own locks or
 * long internal work, not a carrier that a loaded machine deschedules. Each blocking fiber blocks until the
 * test has seen its warning, so that a watchdog slowed down by the load still sees it.
 */
class CarrierWatchdogTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final String WARNING = "without pausing";

    /** Warnings about carriers of {@code s}. */
    private static List<LogRecord> warningsAbout(LogCapture log, Scheduler s) {
        return log.matching(r -> r.getMessage() != null && r.getMessage().contains(WARNING)
                && r.getMessage().contains(" carrier " + s.name() + "-"));
    }

    /** Checks the one warning about {@code fiber}, which blocked {@code how}, at {@code frame}. */
    private static void assertOneWarning(LogCapture log, Scheduler s, String fiber, String how, String frame)
            throws InterruptedException {
        LogRecord r = log.await("[" + fiber + "]", PATIENCE);
        assertEquals(Level.WARNING, r.getLevel());
        assertTrue(r.getMessage().contains(how), r.getMessage());
        assertTrue(r.getMessage().contains(frame), "the fiber's own stack: " + r.getMessage());
        assertEquals(1, log.containing("[" + fiber + "]").size(), () -> "one per stuck slice: " + log.messages());
        assertEquals(1, warningsAbout(log, s).size(), () -> "nothing about anyone else: " + log.messages());
    }

    @Pausable
    static void sleepUntil(AtomicBoolean seen) {
        long end = System.nanoTime() + PATIENCE.toNanos();
        while (!seen.get() && System.nanoTime() - end < 0) {
            try {
                Thread.sleep(10); // the mistake the warning is for: it blocks the carrier
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Test
    @Timeout(60)
    void aFiberThatSleepsOnItsCarrierIsReportedOnce() throws Exception {
        try (Scheduler s = Scheduler.create(2); LogCapture log = new LogCapture()) {
            AtomicBoolean seen = new AtomicBoolean();
            Thread watcher = watchFor(log, "[sleepy]", seen::set);
            Weft.run(s, () -> Weft.spawn("sleepy", () -> sleepUntil(seen)).join());
            watcher.join();
            assertOneWarning(log, s, "sleepy", "blocked in the JVM (TIMED_WAITING)",
                    "CarrierWatchdogTest.sleepUntil");
            assertTrue(log.containing("[sleepy]").get(0).getMessage().contains("Weft.blocking"));
        }
    }

    static void lockBriefly(Object lock) {
        synchronized (lock) {
            lock.hashCode();
        }
    }

    @Test
    @Timeout(60)
    void aFiberWaitingForALockOnItsCarrierIsReportedOnce() throws Exception {
        try (Scheduler s = Scheduler.create(2); LogCapture log = new LogCapture()) {
            Object lock = new Object();
            CountDownLatch held = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (lock) {
                    held.countDown();
                    try {
                        log.await("[locker]", PATIENCE); // holds the lock until the warning is out
                    } catch (InterruptedException | AssertionError e) {
                        // released below either way; the test's own check fails
                    }
                }
            });
            holder.start();
            assertTrue(held.await(20, TimeUnit.SECONDS));
            Weft.run(s, () -> Weft.spawn("locker", () -> lockBriefly(lock)).join());
            holder.join();
            assertOneWarning(log, s, "locker", "blocked in the JVM (BLOCKED)", "CarrierWatchdogTest.lockBriefly");
        }
    }

    static int readOne(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return socket.getInputStream().read(); // blocking I/O on the carrier
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    @Timeout(60)
    void aFiberInBlockingSocketIoOnItsCarrierIsReportedOnce() throws Exception {
        try (Scheduler s = Scheduler.create(2); LogCapture log = new LogCapture();
             ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> {
                try (Socket accepted = server.accept(); OutputStream out = accepted.getOutputStream();
                     InputStream ignored = accepted.getInputStream()) {
                    try {
                        log.await("[reader]", PATIENCE); // answers once the warning is out
                    } finally {
                        out.write(7);
                        out.flush();
                    }
                } catch (Exception e) {
                    // the fiber's read then fails, and the test with it
                }
            });
            peer.start();
            int[] got = new int[1];
            Weft.run(s, () -> Weft.spawn("reader", () -> got[0] = readOne(server.getLocalPort())).join());
            peer.join();
            assertEquals(7, got[0]);
            assertOneWarning(log, s, "reader", "in a native call", "CarrierWatchdogTest.readOne");
        }
    }

    /** A pipeline that never blocks a carrier, beside a barrier of many parties, on a loaded machine: no warning. */
    @Test
    @Timeout(240) // a minute on a machine loaded five times over
    void aPipelineThatNeverBlocksIsNotReportedUnderLoad() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> load = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // more runnable threads than processors: carriers get descheduled
            Thread t = new Thread(() -> {
                long x = 0;
                while (!done.get()) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }, "busy-" + i);
            t.setDaemon(true);
            t.start();
            load.add(t);
        }
        try (Scheduler s = Scheduler.create(2); LogCapture log = new LogCapture()) {
            for (int round = 0; round < 3; round++) {
                Weft.run(s, () -> {
                    One2OneChannel<Integer> a = Channel.one2one(), b = Channel.one2one(16);
                    Any2OneChannel<Integer> c = Channel.any2one();
                    int parties = 20_000;
                    Barrier barrier = new Barrier(parties); // its last arrival wakes all the others at once
                    Parallel.run(
                            () -> {
                                for (int i = 0; i < 100_000; i++) {
                                    a.out().write(i);
                                }
                                a.out().poison();
                            },
                            () -> {
                                try {
                                    for (;;) {
                                        b.out().write(a.in().read() + 1);
                                    }
                                } catch (PoisonException e) {
                                    b.out().poison();
                                }
                            },
                            () -> {
                                try {
                                    for (;;) {
                                        c.out().write(b.in().read());
                                    }
                                } catch (PoisonException e) {
                                    c.out().poison();
                                }
                            },
                            () -> {
                                try {
                                    for (;;) {
                                        Alternative alt = new Alternative(c.in(), Guards.timeout(Duration.ofSeconds(5)));
                                        if (alt.select() == 0) {
                                            c.in().read();
                                        }
                                    }
                                } catch (PoisonException e) {
                                    // the end of the stream
                                }
                            },
                            () -> Parallel.forRange(0, parties, i -> barrier.sync()));
                });
            }
            done.set(true);
            assertEquals(List.of(), warningsAbout(log, s).stream().map(LogRecord::getMessage).toList());
        } finally {
            done.set(true);
            for (Thread t : load) {
                t.join();
            }
        }
    }

    /** A thread that waits, bounded, for a warning containing {@code text}, then calls {@code seen}. */
    static Thread watchFor(LogCapture log, String text, java.util.function.Consumer<Boolean> seen) {
        Thread t = new Thread(() -> {
            try {
                log.await(text, PATIENCE);
            } catch (InterruptedException | AssertionError e) {
                // the test's own check fails
            } finally {
                seen.accept(true);
            }
        });
        t.start();
        return t;
    }
}
