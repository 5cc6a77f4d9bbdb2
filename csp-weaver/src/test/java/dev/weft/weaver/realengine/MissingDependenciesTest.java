package dev.weft.weaver.realengine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.Weaver;
import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;

/**
 * Weaving a jar whose optional dependencies are absent (as Netty, Groovy or log4j are usually woven): classes
 * that do not mention Weft cannot declare pausable methods, and the weaver assumes the missing types (the
 * library's optional dependencies) have none either, so it copies those classes unchanged and OUT still
 * replaces IN. A class that does use Weft may call a user type with pausable methods: if that type is missing
 * it is refused, naming the type; a missing JDK type says that the class needs a newer Java.
 */
class MissingDependenciesTest {
    /** The optional dependency: compiled against, then left out of the jar and of the weave classpath. */
    private static final Map<String, String> OPTIONAL = Map.of(
            "opt/Optional.java", """
                    package opt;

                    public class Optional {
                        public static void go() {
                        }

                        public interface Callback {
                            void call();
                        }
                    }
                    """,
            "opt/Base.java", """
                    package opt;

                    public class Base {
                        public void hook() {
                        }
                    }
                    """);

    /** Library code compiled without Weft, using the optional dependency in every way the weaver looks at. */
    private static final String LIBRARY = """
            package lib;

            public class Library extends opt.Base {
                @Override
                public void hook() {
                    opt.Optional.go();
                }

                Runnable callback() {
                    opt.Optional.Callback c = () -> { };
                    return c::call;
                }
            }
            """;

    /** Uses Weft and calls into the missing dependency: that type could have pausable methods. */
    private static final String USES_BOTH = """
            package app;

            import dev.weft.csp.Pausable;

            public class UsesBoth {
                @Pausable
                void work() {
                    step();
                }

                @Pausable
                void step() {
                }

                void plain() {
                    opt.Optional.go();
                }
            }
            """;

    /** Uses Weft and extends {@code opt.Base}, renamed below into a JDK class this JDK does not have. */
    private static final String NEWER_JDK = """
            package app;

            import dev.weft.csp.Pausable;

            public class NewerJdk extends opt.Base {
                @Override
                public void hook() {
                }

                @Pausable
                void work() {
                }
            }
            """;

    private static final String FUTURE_JDK_CLASS = "java/lang/FutureJdkType";

    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void classesThatDoNotUseWeftAreCopiedUnchangedWhenTheirDependenciesAreMissing() throws Exception {
        Map<String, byte[]> classes = compile(Map.of("lib/Library.java", LIBRARY));
        Path woven = dir.resolve("woven");

        assertEquals(0, cli(jar(classes).toString(), "-d", woven.toString()), err.toString(StandardCharsets.UTF_8));

        assertEquals(classes.keySet(), read(woven).keySet(), "OUT holds every class of IN");
        for (String name : classes.keySet()) {
            if (!name.equals("app/Worker.class")) {
                assertArrayEquals(classes.get(name), read(woven).get(name), name + " is copied unchanged");
            }
        }
        assertTrue(Weaver.isWoven(read(woven).get("app/Worker.class")));
    }

    @Test
    void aClassThatUsesWeftAndAMissingTypeIsRefusedNamingTheTypeAndTheOthersAreStillWritten() throws Exception {
        Map<String, byte[]> classes = compile(Map.of("lib/Library.java", LIBRARY, "app/UsesBoth.java", USES_BOTH,
                "app/NewerJdk.java", NEWER_JDK));
        classes.put("app/NewerJdk.class", renameBase(classes.get("app/NewerJdk.class")));
        Path woven = dir.resolve("woven");

        assertEquals(1, cli(jar(classes).toString(), "-d", woven.toString()));

        String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.contains("app/UsesBoth.java:") && errors.contains("calls Optional.go() but class"
                + " opt.Optional is not on the weave classpath"), errors);
        assertTrue(errors.contains("app/NewerJdk.java:") && errors.contains("java.lang.FutureJdkType")
                && errors.contains("compiled for a newer Java"), errors);
        Map<String, byte[]> written = read(woven);
        assertFalse(written.containsKey("app/UsesBoth.class") || written.containsKey("app/NewerJdk.class"));
        assertArrayEquals(classes.get("lib/Library.class"), written.get("lib/Library.class"));
        assertEquals(classes.size() - 2, written.size(), () -> "written: " + written.keySet());
    }

    private int cli(String... args) {
        return WeaveCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** Compiles the small program, {@link #OPTIONAL} and {@code sources}; returns every class but the optional ones. */
    private Map<String, byte[]> compile(Map<String, String> sources) throws IOException {
        Map<String, String> all = new TreeMap<>(OPTIONAL);
        all.putAll(sources);
        Map<String, byte[]> classes = read(SmallProgram.compile(dir, all));
        classes.keySet().removeIf(name -> name.startsWith("opt/"));
        return classes;
    }

    /** {@code opt.Base} becomes a JDK class that no JDK has: as if compiled against a newer JDK. */
    private static byte[] renameBase(byte[] classFile) {
        ClassWriter w = new ClassWriter(0);
        new ClassReader(classFile).accept(new ClassRemapper(w, new SimpleRemapper("opt/Base", FUTURE_JDK_CLASS)), 0);
        return w.toByteArray();
    }

    private Path jar(Map<String, byte[]> classes) throws IOException {
        Path jar = dir.resolve("in.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                j.putNextEntry(new JarEntry(c.getKey()));
                j.write(c.getValue());
                j.closeEntry();
            }
        }
        return jar;
    }

    /** Every class file under {@code root}, by path ({@code pkg/Name.class}). */
    private static Map<String, byte[]> read(Path root) throws IOException {
        Map<String, byte[]> classes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                classes.put(root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/"),
                        Files.readAllBytes(f));
            }
        }
        return classes;
    }
}
