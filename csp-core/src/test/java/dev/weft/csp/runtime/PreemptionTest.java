package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The weaver's preemptive mode: checks at loop back-edges let a spinning fiber share its carrier. */
class PreemptionTest {
    private static final String SPINNER = String.join("\n",
            "package snip;",
            "import dev.weft.csp.*;",
            "import java.util.concurrent.atomic.*;",
            "public class Spinner implements CSProcess {",
            "    private final AtomicBoolean stop;",
            "    public Spinner(AtomicBoolean stop) { this.stop = stop; }",
            "    @Pausable public void run() {",
            "        while (!stop.get()) { Thread.onSpinWait(); }",
            "    }",
            "}");
    private static final String SUMMER = String.join("\n",
            "package snip;",
            "import dev.weft.csp.*;",
            "import java.util.concurrent.atomic.*;",
            "public class Summer implements CSProcess {",
            "    private final AtomicLong out;",
            "    public Summer(AtomicLong out) { this.out = out; }",
            "    @Pausable public void run() {",
            "        long sum = 0; double d = 0.5; String s = \"x\";",
            "        for (int i = 0; i < 3_000_000; i++) { sum += i; d += 1; }",
            "        Object lock = new Object();",
            "        synchronized (lock) { for (int i = 0; i < 10; i++) { sum += 0; } }",
            "        out.set(sum + (long) d + s.length());",
            "    }",
            "}");

    /**
     * Loops with empty bodies, stopped by a volatile flag that {@code run()} sets, and a do-while whose
     * back-edge holds two operands: the preemption check has no stack to spare in any of them.
     */
    private static final String EMPTY_LOOPS = String.join("\n",
            "package snip;",
            "import dev.weft.csp.*;",
            "import java.util.concurrent.atomic.*;",
            "public class EmptyLoops implements Runnable {",
            "    private volatile boolean stop;",
            "    public void run() { stop = true; }",
            "    public CSProcess whileNotStopped() { return () -> { while (!stop) {} }; }",
            "    public CSProcess doWhileNotStopped() { return () -> { do {} while (!stop); }; }",
            "    public static CSProcess countTo(int n, AtomicLong out) {",
            "        return () -> { int i = 0; do { i++; } while (i < n); out.set(i); };",
            "    }",
            "}");

    /** Computes until stopped, never pausing: 8192 passes of its loop (a slice) take ~0.15 ms. */
    private static final String CRUNCHER = String.join("\n",
            "package snip;",
            "import dev.weft.csp.*;",
            "import java.util.concurrent.atomic.*;",
            "public class Cruncher implements CSProcess {",
            "    public static volatile double sink;",
            "    private final AtomicBoolean stop;",
            "    public Cruncher(AtomicBoolean stop) { this.stop = stop; }",
            "    @Pausable public void run() {",
            "        double x = 1;",
            "        while (!stop.get()) { x = Math.sin(x) + Math.cos(x); }",
            "        sink = x;",
            "    }",
            "}");

    @TempDir
    Path dir;

    @Test
    @Timeout(30)
    void aSpinningFiberDoesNotStarveTheOtherOnOneCarrier() throws Exception {
        Map<String, byte[]> woven = compileAndWeave(Map.of("Spinner", SPINNER), true);
        AtomicBoolean stop = new AtomicBoolean();
        CSProcess spinner = (CSProcess) load(woven, "snip.Spinner").getConstructor(AtomicBoolean.class)
                .newInstance(stop);
        try (Scheduler s = Scheduler.singleThreaded()) {
            // The spinner runs first and only the second process can stop it: without preemption, a hang.
            Weft.run(s, () -> Parallel.run(spinner, () -> stop.set(true)));
        }
        assertTrue(stop.get());
    }

    @Test
    @Timeout(30)
    void valuesLiveAcrossAPreemptionSurviveIt() throws Exception {
        Map<String, byte[]> woven = compileAndWeave(Map.of("Summer", SUMMER), true);
        AtomicLong result = new AtomicLong();
        CSProcess summer = (CSProcess) load(woven, "snip.Summer").getConstructor(AtomicLong.class)
                .newInstance(result);
        AtomicLong pings = new AtomicLong();
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                dev.weft.csp.One2OneChannel<Integer> c = Channel.one2one();
                AtomicBoolean done = new AtomicBoolean();
                // A pair of fibers that keep communicating: the summer is preempted again and again.
                Weft.spawn(() -> {
                    while (!done.get()) {
                        c.out().write(1);
                    }
                    c.out().write(0);
                });
                Weft.spawn(() -> {
                    while (c.in().read() != 0) {
                        pings.incrementAndGet();
                    }
                });
                Weft.spawn(summer).join();
                done.set(true);
            });
        }
        long n = 3_000_000L;
        assertEquals(n * (n - 1) / 2 + (long) (0.5 + n) + 1, result.get());
        assertTrue(pings.get() > 10, "the others ran only " + pings.get() + " times meanwhile");
    }

    @Test
    @Timeout(30)
    void fibersSpinningInEmptyLoopsShareOneCarrier() throws Exception {
        Class<?> loops = load(compileAndWeave(Map.of("EmptyLoops", EMPTY_LOOPS), true), "snip.EmptyLoops");
        Runnable stop = (Runnable) loops.getConstructor().newInstance();
        List<CSProcess> spinners = new ArrayList<>();
        for (String loop : List.of("whileNotStopped", "whileNotStopped", "doWhileNotStopped", "doWhileNotStopped")) {
            spinners.add((CSProcess) loops.getMethod(loop).invoke(stop));
        }
        int n = 50_000_000;
        AtomicLong counted = new AtomicLong();
        CSProcess counter = (CSProcess) loops.getMethod("countTo", int.class, AtomicLong.class)
                .invoke(null, n, counted);
        AtomicInteger naps = new AtomicInteger();
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                for (CSProcess p : spinners) {
                    Weft.spawn(p); // they run first, and only this process can stop them
                }
                Weft.spawn(counter).join(); // preempted with the operands of its do-while on the stack
                for (int i = 0; i < 5; i++) {
                    Timer.sleep(Duration.ofMillis(1));
                    naps.incrementAndGet();
                }
                stop.run();
            });
        }
        assertEquals(n, counted.get());
        assertEquals(5, naps.get());
    }

    @Test
    @Timeout(60)
    void aSleeperAmongFibersPreemptedAgainAndAgainWakesOnTime() throws Exception {
        Class<?> cruncher = load(compileAndWeave(Map.of("Cruncher", CRUNCHER), true), "snip.Cruncher");
        AtomicBoolean stop = new AtomicBoolean();
        List<CSProcess> crunchers = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            crunchers.add((CSProcess) cruncher.getConstructor(AtomicBoolean.class).newInstance(stop));
        }
        long[] lateness = new long[9];
        try (Scheduler s = Scheduler.singleThreaded()) {
            Worker worker = ((Carrier) Carriers.of(s).get(0)).worker;
            Weft.run(s, () -> {
                for (CSProcess p : crunchers) {
                    Weft.spawn(p);
                }
                for (int i = 0; i < lateness.length; i++) {
                    long due = System.nanoTime() + 10_000_000;
                    AtomicInteger slicesAtDue = new AtomicInteger(Integer.MAX_VALUE);
                    Thread clock = new Thread(() -> { // notes the carrier's slice count as the nap falls due
                        for (long left; (left = due - System.nanoTime()) > 0; ) {
                            LockSupport.parkNanos(left);
                        }
                        slicesAtDue.set(worker.slices());
                    });
                    clock.start();
                    Timer.sleep(Duration.ofMillis(10));
                    lateness[i] = Math.max(0, worker.slices() - slicesAtDue.get()); // a late clock: early, never late
                }
                stop.set(true);
            });
        }
        // Once due, the timer fires at the next yield and its fiber waits one pass of the queue: 33 slices here.
        // It used to wait for the worker's next rotation, every 256 dispatches. Counted in slices, not in time, so
        // that a loaded machine, which deschedules the carrier, changes nothing (the clock thread may note the
        // count late, which only makes a nap look earlier).
        assertTrue(Arrays.stream(lateness).min().getAsLong() < 128, () -> "late by (slices) "
                + Arrays.stream(lateness).mapToObj(Long::toString).collect(Collectors.joining(", ")));
    }

    @Test
    void checksAreInsertedOnlyInPreemptiveMode() throws Exception {
        String plain = new String(compileAndWeave(Map.of("Spinner", SPINNER), false).get("snip.Spinner"),
                StandardCharsets.ISO_8859_1);
        String preemptive = new String(compileAndWeave(Map.of("Spinner", SPINNER), true).get("snip.Spinner"),
                StandardCharsets.ISO_8859_1);
        assertFalse(plain.contains("yieldIfOthersWait"));
        assertTrue(preemptive.contains("yieldIfOthersWait"));
    }

    private Map<String, byte[]> compileAndWeave(Map<String, String> sources, boolean preemptive) throws Exception {
        Path out = Files.createTempDirectory(dir, "classes");
        Path core = Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        List<SimpleJavaFileObject> units = sources.entrySet().stream().map(e -> source(e.getKey(), e.getValue()))
                .collect(Collectors.toList());
        boolean ok = javac.getTask(diagnostics, null, null, List.of("--release", "17", "-g", "-classpath",
                core.toString(), "-d", out.toString()), null, units).call();
        assertTrue(ok, diagnostics.toString());
        Map<String, byte[]> woven = new HashMap<>();
        try (ClassPath classpath = ClassPath.open(List.of(out, core)); var files = Files.walk(out)) {
            Weaver weaver = new Weaver(classpath, preemptive);
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                String rel = out.relativize(f).toString().replace('\\', '/');
                woven.put(rel.substring(0, rel.length() - 6).replace('/', '.'), weaver.weave(Files.readAllBytes(f)));
            }
        }
        return woven;
    }

    private static SimpleJavaFileObject source(String name, String text) {
        return new SimpleJavaFileObject(URI.create("string:///snip/" + name + ".java"),
                javax.tools.JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }
        };
    }

    private static Class<?> load(Map<String, byte[]> classes, String name) throws ClassNotFoundException {
        ClassLoader loader = new ClassLoader(PreemptionTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String n) throws ClassNotFoundException {
                byte[] b = classes.get(n);
                if (b == null) {
                    throw new ClassNotFoundException(n);
                }
                return defineClass(n, b, 0, b.length);
            }
        };
        return loader.loadClass(name);
    }
}
