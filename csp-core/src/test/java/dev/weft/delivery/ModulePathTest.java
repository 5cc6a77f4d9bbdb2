package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * csp-core is a named module ({@code dev.weft.csp}, from its {@code module-info}): a program that is a module of
 * its own compiles against the jar on the module path, is woven by the command line, and runs there (fibers, a
 * channel, a par, the scheduler's MXBean); the SPI, the runtime and the internals are closed to it at compile time
 * and at run time.
 */
@Timeout(180)
class ModulePathTest {
    private static final String CORE_MODULE = "dev.weft.csp";

    /**
     * A par of a writer and a summing reader on two carriers, over a buffered channel, then what the program sees
     * of csp-core's module. A fiber and a buffer are API types whose superclasses are in packages no module reads.
     */
    private static final String PROGRAM = """
            package demo;

            import dev.weft.csp.Channel;
            import dev.weft.csp.ChannelBuffer;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.Fiber;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Parallel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Scheduler;
            import dev.weft.csp.Weft;
            import java.lang.management.ManagementFactory;
            import javax.management.MBeanServer;
            import javax.management.ObjectName;

            public final class Pipeline {
                public static void main(String[] args) throws Exception {
                    MBeanServer server = ManagementFactory.getPlatformMBeanServer(); // the scheduler registers in it
                    long[] total = new long[1];
                    try (Scheduler scheduler = Scheduler.create(2)) {
                        Weft.run(scheduler, () -> {
                            One2OneChannel<Integer> numbers = Channel.one2one(ChannelBuffer.fixed(16));
                            Parallel.run(() -> {
                                for (int i = 1; i <= 1000; i++) {
                                    numbers.out().write(i);
                                }
                            }, () -> total[0] = sum(numbers.in(), 1000));
                            System.out.println("cancelled=" + Fiber.current().isCancelled());
                        });
                        System.out.println("sum=" + total[0]);
                        for (ObjectName bean : server.queryNames(new ObjectName("dev.weft:type=Scheduler,*"), null)) {
                            System.out.println("workers=" + server.getAttribute(bean, "Workers"));
                        }
                        Module core = Channel.class.getModule();
                        System.out.println(core.getName() + " automatic=" + core.getDescriptor().isAutomatic());
                        try {
                            Class.forName("dev.weft.csp.spi.Extensions").getMethod("pool", Scheduler.class)
                                    .invoke(null, scheduler);
                            System.out.println("spi open");
                        } catch (IllegalAccessException e) {
                            System.out.println("spi closed");
                        }
                        One2OneChannel<Integer> channel = Channel.one2one(); // its class is internal
                        try {
                            channel.getClass().getMethod("lock").invoke(channel);
                            System.out.println("internals open");
                        } catch (IllegalAccessException e) {
                            System.out.println("internals closed");
                        }
                    }
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

    /** A program that names the SPI, which csp-core exports to the libraries built on Weft alone. */
    private static final String INTRUDER = """
            package demo;

            public final class Intruder {
                public static void main(String[] args) {
                    dev.weft.csp.spi.Extensions.pool(dev.weft.csp.Scheduler.singleThreaded());
                }
            }
            """;

    /** A program that names the internals, which csp-core exports to no module. */
    private static final String INTERNALS_INTRUDER = """
            package demo;

            public final class InternalsIntruder {
                public static void main(String[] args) {
                    System.out.println(dev.weft.csp.internal.Deadlines.nanos(java.time.Duration.ZERO));
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aModularProgramCompilesWeavesAndRunsOnTheModulePath() throws Exception {
        Path core = coreJar();
        StringWriter messages = new StringWriter();
        Path classes = compile("Pipeline", PROGRAM, core, messages);
        assertTrue(classes != null, "the modular program compiles against the jar on the module path:\n" + messages);

        Path woven = dir.resolve("woven");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WeaveCli.run(new String[] {"-cp", core.toString(), classes.toString(), "-d", woven.toString()},
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.exists(woven.resolve("module-info.class")), "the module descriptor is kept");

        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(120),
                List.of("--module-path", core + File.pathSeparator + woven, "-m", "demo/demo.Pipeline"));
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(List.of("cancelled=false", "sum=500500", "workers=2", CORE_MODULE + " automatic=false", "spi closed",
                "internals closed"), r.lines(),
                r.toString());
    }

    @Test
    void aProgramThatNamesTheSpiDoesNotCompile() throws Exception {
        assertRefused("Intruder", INTRUDER,
                "package dev.weft.csp.spi is declared in module dev.weft.csp, which does not export it to module demo");
    }

    @Test
    void aProgramThatNamesTheInternalsDoesNotCompile() throws Exception {
        assertRefused("InternalsIntruder", INTERNALS_INTRUDER,
                "package dev.weft.csp.internal is declared in module dev.weft.csp, which does not export it");
    }

    /** javac refuses module {@code demo} with {@code source}, saying {@code why}. */
    private void assertRefused(String className, String source, String why) throws IOException {
        StringWriter messages = new StringWriter();
        assertEquals(null, compile(className, source, coreJar(), messages), "compiled");
        assertTrue(messages.toString().contains(why), messages.toString());
    }

    /** Compiles module {@code demo} with one class; its classes, or null if javac refused it. */
    private Path compile(String className, String source, Path core, StringWriter messages) throws IOException {
        Path src = dir.resolve("src-" + className);
        Files.createDirectories(src.resolve("demo"));
        Path descriptor = Files.writeString(src.resolve("module-info.java"),
                "module demo { requires " + CORE_MODULE + "; requires java.management; }\n");
        Path file = Files.writeString(src.resolve("demo/" + className + ".java"), source);
        Path classes = dir.resolve("classes-" + className);
        Path empty = Files.createDirectories(dir.resolve("no-classes")); // not this JVM's, which holds csp-core's
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        boolean ok = javac.getTask(messages, null, null, List.of("--release", "17", "--module-path", core.toString(),
                        "--class-path", empty.toString(), "-d", classes.toString()), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(descriptor.toFile(), file.toFile()))
                .call();
        return ok ? classes : null;
    }

    /** csp-core's classes, its module descriptor among them, in a jar as the build makes it. */
    private Path coreJar() throws IOException {
        Path classes = DemoPrograms.coreClasses();
        assertTrue(Files.exists(classes.resolve("module-info.class")), "csp-core has a module descriptor");
        Path jar = dir.resolve("csp-core.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }
}
