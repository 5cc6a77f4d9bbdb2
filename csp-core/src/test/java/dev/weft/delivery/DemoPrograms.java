package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.csp.Channel;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Small Weft programs compiled at test time, unwoven, against csp-core's classes. */
final class DemoPrograms {
    /** Two fibers: one writes 1..1000 over a channel, the other sums them in a pausable helper and prints the sum. */
    static final String SUM = """
            package demo;

            import dev.weft.csp.Channel;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Scheduler;
            import dev.weft.csp.Weft;

            public final class Sum {
                public static void main(String[] args) {
                    try (Scheduler scheduler = Scheduler.singleThreaded()) {
                        Weft.run(scheduler, () -> {
                            One2OneChannel<Integer> numbers = Channel.one2one();
                            Weft.spawn(() -> {
                                for (int i = 1; i <= 1000; i++) {
                                    numbers.out().write(i);
                                }
                            });
                            Weft.spawn(() -> System.out.println("sum=" + sum(numbers.in(), 1000)));
                        });
                    }
                    System.out.println("done");
                }

                @Pausable
                static long sum(ChannelInput<Integer> in, int count) {
                    long total = 0;
                    for (int i = 0; i < count; i++) {
                        total += in.read();
                    }
                    return total;
                }
            }
            """;

    /** What {@link #SUM} prints when it runs woven. */
    static final List<String> SUM_OUTPUT = List.of("sum=500500", "done");

    /** A class the weaver must refuse (a pause while holding a monitor), loaded by a main that then goes on. */
    static final String BAD = """
            package demo;

            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.Pausable;

            public final class Bad {
                private final Object lock = new Object();

                @Pausable
                int readLocked(ChannelInput<Integer> in) {
                    synchronized (lock) {
                        return in.read();
                    }
                }

                public static void main(String[] args) {
                    System.out.println("loaded " + new Bad().getClass().getSimpleName());
                }
            }
            """;

    /** A class the weaver must refuse (a pause while holding a monitor) whose pausable code then runs. */
    static final String BAD_RUN = """
            package demo;

            import dev.weft.csp.Channel;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Scheduler;
            import dev.weft.csp.Weft;

            public final class BadRun {
                private static final Object LOCK = new Object();

                @Pausable
                static int readLocked(One2OneChannel<Integer> c) {
                    synchronized (LOCK) {
                        return c.in().read();
                    }
                }

                public static void main(String[] args) {
                    try (Scheduler scheduler = Scheduler.singleThreaded()) {
                        Weft.run(scheduler, () -> System.out.println(readLocked(Channel.one2one())));
                    }
                }
            }
            """;

    /**
     * An agent of its own (premain keeps the Instrumentation) that runs {@link #SUM}, retransforms it and
     * runs it again: the woven class must survive retransformation.
     */
    static final String RETRANSFORM = """
            package demo;

            import java.lang.instrument.Instrumentation;

            public final class Retransform {
                private static Instrumentation instrumentation;

                public static void premain(String args, Instrumentation inst) {
                    instrumentation = inst;
                }

                public static void main(String[] args) throws Exception {
                    Class<?> sum = Class.forName("demo.Sum"); // compiled apart: reached by name
                    sum.getMethod("main", String[].class).invoke(null, (Object) args);
                    instrumentation.retransformClasses(sum);
                    sum.getMethod("main", String[].class).invoke(null, (Object) args);
                }
            }
            """;

    /**
     * On one carrier, a fiber sums three values read from a channel; the main process writes them. The first
     * read finds the writer waiting; the second pauses the reading fiber.
     */
    static final String STEPS = """
            package demo;

            import dev.weft.csp.Channel;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Scheduler;
            import dev.weft.csp.Weft;

            public final class Steps {
                @Pausable
                static long sum(ChannelInput<Integer> in, int count) {
                    long total = 0;
                    for (int i = 0; i < count; i++) {
                        int v = in.read();
                        total += v;
                    }
                    return total;
                }

                public static void main(String[] args) {
                    try (Scheduler s = Scheduler.singleThreaded()) {
                        Weft.run(s, () -> {
                            One2OneChannel<Integer> c = Channel.one2one();
                            Weft.spawn(() -> System.out.println("sum=" + sum(c.in(), 3)));
                            for (int i = 1; i <= 3; i++) {
                                c.out().write(i);
                            }
                        });
                    }
                }
            }
            """;

    /** The line of {@code in.read()} in {@link #STEPS}; {@link #STEPS_SUM_CALL}, the line that calls sum. */
    static final int STEPS_READ = 15;
    static final int STEPS_SUM_CALL = 25;

    /** The line of {@code in.read()} in {@link #BAD}. */
    static final int BAD_LINE = 12;

    /**
     * Two fibers spin forever in empty loops on one carrier while the main process naps and prints: it gets
     * the carrier back only if the spinners are woven preemptively. The spinners never end, so {@code Weft.run}
     * runs in a daemon thread and {@code main} returns once the naps are over.
     */
    static final String SPIN = """
            package demo;

            import dev.weft.csp.Scheduler;
            import dev.weft.csp.Timer;
            import dev.weft.csp.Weft;
            import java.time.Duration;
            import java.util.concurrent.CountDownLatch;

            public final class Spin {
                public static void main(String[] args) throws InterruptedException {
                    CountDownLatch napped = new CountDownLatch(1);
                    Thread runner = new Thread(() -> Weft.run(Scheduler.singleThreaded(), () -> {
                        for (int i = 0; i < 2; i++) {
                            Weft.spawn(() -> {
                                for (;;) {}
                            });
                        }
                        for (int i = 1; i <= 3; i++) {
                            Timer.sleep(Duration.ofMillis(1));
                            System.out.println("nap " + i);
                        }
                        napped.countDown();
                    }));
                    runner.setDaemon(true);
                    runner.start();
                    napped.await();
                    System.out.println("done");
                }
            }
            """;

    /** What {@link #SPIN} prints when it runs woven preemptively. */
    static final List<String> SPIN_OUTPUT = List.of("nap 1", "nap 2", "nap 3", "done");

    /** Attaches the agent named by its first argument to its own JVM, then runs {@code demo.Sum}. */
    static final String ATTACH = """
            package demo;

            import com.sun.tools.attach.VirtualMachine;

            public final class Attach {
                public static void main(String[] args) throws Exception {
                    VirtualMachine self = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
                    try {
                        self.loadAgent(args[0]);
                    } finally {
                        self.detach();
                    }
                    // Loaded only now, after the attach: the agent weaves it as it loads.
                    Class.forName("demo.Sum").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
                }
            }
            """;

    private DemoPrograms() {
    }

    /** The standalone csp-weaver jar (agent and CLI), as csp-weaver's build packaged it. */
    static Path weaverJar() {
        // Surefire runs in the module's directory; the jar is csp-weaver's package output.
        Path jar = Path.of("..", "csp-weaver", "target", "csp-weaver-0.1.0-SNAPSHOT.jar").toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            fail("the standalone weaver jar " + jar + " is missing: package csp-weaver first "
                    + "(mvn package -pl csp-weaver, or mvn verify from the root)");
        }
        return jar;
    }

    /** csp-core's own (woven) classes: the runtime the programs compile and run against. */
    static Path coreClasses() {
        try {
            return Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compiles {@code source}, the class {@code demo.<simpleName>}, into {@code dir}/classes; returns that directory. */
    static Path compile(Path dir, String simpleName, String source) throws IOException {
        Path src = dir.resolve("src/demo/" + simpleName + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, source);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            fail("these tests need a JDK (javax.tools finds no compiler)");
        }
        StringWriter messages = new StringWriter();
        boolean ok = javac.getTask(messages, null, null,
                List.of("--release", "17", "-g", "-cp", coreClasses().toString(), "-d", classes.toString()),
                null, javac.getStandardFileManager(null, null, null).getJavaFileObjects(src.toFile())).call();
        assertTrue(ok, "demo program does not compile:\n" + messages);
        return classes;
    }
}
