package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class FiberDumpTest {
    private static final AtomicInteger READ_LINE = new AtomicInteger();

    @Pausable
    static int readIt(ChannelInput<Integer> in) {
        READ_LINE.set(new Throwable().getStackTrace()[0].getLineNumber() + 1);
        return in.read();
    }

    @Test
    @Timeout(20)
    void aNamedFiberShowsItsNameInItsHandleDumpsAndDeadlockReports() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            String[] handle = new String[1];
            DeadlockException e = assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Fiber f = Weft.spawn("order-reader", () -> c.in().read());
                handle[0] = f.toString();
                f.join();
            }));
            assertTrue(handle[0].contains("[order-reader]"), handle[0]);
            assertTrue(e.getMessage().contains("[order-reader]"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Weft.spawn(" ", () -> { }));
        assertThrows(IllegalArgumentException.class, () -> Weft.spawn((String) null, () -> { }));
    }

    /** A branch of Parallel.run is named after the method its lambda is written in, not after Parallel. */
    @Test
    @Timeout(20)
    void parallelBranchesAreNamedAfterTheirProcesses() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            DeadlockException e = assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Parallel.run(() -> c.in().read(), () -> c.out().write(1), () -> c.out().write(2));
            }));
            assertTrue(e.getMessage().contains(
                    "[lambda in dev.weft.csp.FiberDumpTest.parallelBranchesAreNamedAfterTheirProcesses]"),
                    e.getMessage());
        }
    }

    /** A branch of Parallel.forRange is named after the method its body is written in, not after Parallel. */
    @Test
    @Timeout(20)
    void forRangeBranchesAreNamedAfterTheirBody() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            DeadlockException e = assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2AnyChannel<Integer> c = Channel.one2any();
                Parallel.forRange(0, 3, i -> c.in().read());
            }));
            assertTrue(e.getMessage().contains(
                    "[lambda in dev.weft.csp.FiberDumpTest.forRangeBranchesAreNamedAfterTheirBody]"), e.getMessage());
            assertFalse(e.getMessage().contains("[lambda in dev.weft.csp.Parallel"), e.getMessage());
        }
    }

    /** Dumps describe guards readably: a timeout by its duration, not by an object's identity. */
    @Test
    @Timeout(20)
    void aSelectingFiberShowsItsGuardsReadably() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Fiber f = Weft.spawn(() -> {
                    Alternative alt = new Alternative(c.in(), Guards.timeout(Duration.ofMinutes(100)),
                            Guards.deadline(Long.MAX_VALUE));
                    assertEquals(0, alt.select());
                    c.in().read();
                });
                Schedulers.awaitParked(f);
                String dump = s.dumpFibers();
                assertTrue(dump.contains("an Alternative over [the input of channel #"), dump);
                assertTrue(dump.contains("timeout 100.0 min, deadline never]"), dump);
                c.out().write(1);
                f.join();
            });
        }
        assertEquals("timeout 1.5 ms", Guards.timeout(Duration.ofNanos(1_500_000)).toString());
        assertEquals("timeout 12.0 s", Guards.timeout(Duration.ofSeconds(12)).toString());
        assertEquals("timeout 250 us", Guards.timeout(Duration.ofNanos(250_000)).toString());
        assertEquals("timeout never", Guards.timeout(Duration.ofSeconds(Long.MAX_VALUE)).toString());
        assertEquals("deadline passed", Guards.deadline(System.nanoTime() - 1).toString());
        assertEquals("skip", Guards.skip().toString());
    }

    @Test
    @Timeout(20)
    void aParkedFiberShowsWhatItWaitsOnAndWhereItPaused() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            One2OneChannel<Integer> c = Channel.one2one();
            AtomicReference<Integer> got = new AtomicReference<>();
            Thread runner = new Thread(() -> Weft.run(s, () -> got.set(readIt(c.in()))));
            runner.start();
            String dump = s.dumpFibers();
            while (!dump.contains("parked")) {
                Thread.onSpinWait();
                dump = s.dumpFibers();
            }
            String viaJmx = (String) ManagementFactory.getPlatformMBeanServer().invoke(mbean(s), "dumpFibers",
                    null, null);
            c.out().write(7);
            runner.join();
            assertEquals(7, got.get());
            assertTrue(dump.startsWith("Weft scheduler " + s.name() + ": 2 workers, 1 live fiber"), dump);
            assertTrue(dump.contains("parked, waiting on the input of " + c), dump);
            assertTrue(dump.contains("\tat dev.weft.csp.internal.ChannelImpl$In.read(ChannelImpl.java:"), dump);
            assertTrue(dump.contains("\tat dev.weft.csp.FiberDumpTest.readIt(FiberDumpTest.java:" + READ_LINE.get()
                    + ")\n"), dump);
            assertTrue(viaJmx.contains("FiberDumpTest.readIt(FiberDumpTest.java:" + READ_LINE.get() + ")"), viaJmx);
            int rendezvous = dump.indexOf("ChannelImpl$In.read");
            assertTrue(rendezvous < dump.indexOf("FiberDumpTest.readIt"), "innermost first: " + dump);
        }
    }

    /** A running fiber's dump shows its carrier's stack down to its process's own frames, none of the carrier's. */
    @Test
    @Timeout(20)
    void aRunningFiberShowsItsStackDownToItsProcessOnly() {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicBoolean stop = new AtomicBoolean();
            Fiber spinner = Weft.spawn(s, () -> spinUntil(stop));
            try {
                String dump = s.dumpFibers();
                while (!dump.contains("spinUntil")) {
                    Thread.onSpinWait();
                    dump = s.dumpFibers();
                }
                String section = dump.substring(dump.indexOf(" running on "));
                section = section.substring(0, section.indexOf("\n\n"));
                assertTrue(section.contains("dev.weft.csp.FiberDumpTest.lambda$aRunningFiberShows"), section);
                assertTrue(!section.contains("dev.weft.csp.Fiber.") && !section.contains("dev.weft.csp.Fiber$")
                        && !section.contains("dev.weft.csp.runtime.") && !section.contains("java.lang.invoke."), section);
            } finally {
                stop.set(true);
            }
            spinner.join();
        }
    }

    static void spinUntil(AtomicBoolean stop) {
        while (!stop.get()) {
            Thread.onSpinWait();
        }
    }

    @Test
    @Timeout(20)
    void theMBeanGoesAwayWithTheScheduler() throws Exception {
        Scheduler s = Scheduler.singleThreaded();
        ObjectName name = mbean(s);
        assertEquals(1, ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Workers"));
        s.close();
        assertTrue(!ManagementFactory.getPlatformMBeanServer().isRegistered(name));
    }

    /** The name of {@code s}'s MBean, once registered (see {@link SchedulerMBeanTest#awaitMBean}). */
    static ObjectName mbean(Scheduler s) throws Exception {
        return SchedulerMBeanTest.awaitMBean(s);
    }

    @Test
    @Timeout(20)
    void anUnjoinedFailureIsLoggedWithTheFibersStackAndTheCarrierLivesOn() throws Exception {
        try (Scheduler s = Scheduler.singleThreaded(); LogCapture log = new LogCapture()) {
            AtomicReference<Thread> before = new AtomicReference<>();
            AtomicReference<Thread> after = new AtomicReference<>();
            Weft.run(s, () -> {
                before.set(Thread.currentThread());
                Weft.spawn(FiberDumpTest::failsAfterAPause); // never joined: goes to the handler
            });
            Weft.run(s, () -> after.set(Thread.currentThread()));
            assertSame(before.get(), after.get(), "the carrier survived");
            java.util.logging.LogRecord r = log.await("which nobody joined", java.time.Duration.ofSeconds(10));
            assertTrue(r.getMessage().startsWith("Exception in Fiber@"), r.getMessage());
            assertEquals(java.util.logging.Level.SEVERE, r.getLevel());
            StringWriter stack = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(stack));
            String text = stack.toString();
            assertTrue(text.contains("java.lang.IllegalStateException: boom"), text);
            assertTrue(text.contains("at dev.weft.csp.FiberDumpTest.failsAfterAPause(FiberDumpTest.java:"), text);
        }
    }

    @Pausable
    static void failsAfterAPause() {
        Timer.sleep(java.time.Duration.ofMillis(1));
        throw new IllegalStateException("boom");
    }

    /**
     * Dumps taken over and over while fibers resume and pause at ever other depths (a slot of their saved
     * frames is a pause site one moment and a saved reference the next): no dump throws, and every frame it
     * shows is a pause site.
     */
    @Test
    @Timeout(120)
    void aDumpOfFibersThatMoveWhileItIsReadNeverThrows() {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Fiber> movers = new ArrayList<>();
            for (int f = 0; f < 8; f++) {
                movers.add(Weft.spawn(s, () -> {
                    for (int i = 0; !stop.get(); i++) {
                        descend(1 + i % 7, "frame");
                    }
                }));
            }
            Pattern frame = Pattern.compile("\\tat \\S+\\(.*\\)");
            try {
                // As many dumps as 20 s allow, at most 5,000: a loaded machine runs fewer, never past the timeout.
                long end = System.nanoTime() + 20_000_000_000L;
                for (int dump = 0; dump < 5_000 && (dump < 10 || System.nanoTime() - end < 0); dump++) {
                    for (String line : s.dumpFibers().split("\n")) {
                        if (line.startsWith("\tat ") && !line.contains("java.") && !line.contains("jdk.")) {
                            assertTrue(frame.matcher(line).matches(), line);
                        }
                    }
                }
            } finally {
                stop.set(true);
            }
            movers.forEach(Fiber::join);
        }
    }

    /** Pauses {@code depth} frames down, each frame saving a reference of another type than its neighbour's. */
    @Pausable
    static int descend(int depth, String label) {
        if (depth == 0) {
            Fiber.yield();
            return label.length();
        }
        Object held = depth % 2 == 0 ? label : Integer.valueOf(depth);
        int below = descend(depth - 1, label);
        return below + held.hashCode() % 2;
    }
}
