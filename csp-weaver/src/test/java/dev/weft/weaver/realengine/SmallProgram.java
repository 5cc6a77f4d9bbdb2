package dev.weft.weaver.realengine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Real class files for the real engine, compiled at test time. csp-core (which owns {@code @Pausable}) is
 * built after this module, so the annotation is declared here under its real name: the engine knows it by
 * name only.
 */
final class SmallProgram {
    static final Map<String, String> SOURCES = Map.of(
            "dev/weft/csp/Pausable.java", """
                    package dev.weft.csp;

                    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
                    @java.lang.annotation.Target(java.lang.annotation.ElementType.METHOD)
                    public @interface Pausable {
                    }
                    """,
            "app/Worker.java", """
                    package app;

                    import dev.weft.csp.Pausable;

                    public class Worker {
                        @Pausable
                        public int twice(int x) {
                            int y = step(x);
                            return y + step(x);
                        }

                        @Pausable
                        int step(int x) {
                            return x;
                        }
                    }
                    """,
            "app/Plain.java", """
                    package app;

                    public class Plain {
                        int inc(int x) {
                            return x + 1;
                        }
                    }
                    """);

    /** Pauses while holding a monitor: the engine must refuse it. */
    static final String BAD = """
            package app;

            import dev.weft.csp.Pausable;

            public class Bad {
                private final Object lock = new Object();

                @Pausable
                int locked() {
                    synchronized (lock) {
                        return step();
                    }
                }

                @Pausable
                int step() {
                    return 1;
                }
            }
            """;

    /** The line of {@code step()} in {@link #BAD}. */
    static final int BAD_LINE = 11;

    private SmallProgram() {
    }

    /** Compiles {@link #SOURCES} (and {@code extra}, path to source) into {@code dir}/classes; returns it. */
    static Path compile(Path dir, Map<String, String> extra) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map<String, String> sources : List.of(SOURCES, extra)) {
            for (Map.Entry<String, String> e : sources.entrySet()) {
                Path f = dir.resolve("src").resolve(e.getKey());
                Files.createDirectories(f.getParent());
                files.add(Files.writeString(f, e.getValue()));
            }
        }
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter messages = new StringWriter();
        boolean ok = javac.getTask(messages, null, null, List.of("--release", "17", "-g", "-d", classes.toString()),
                null, javac.getStandardFileManager(null, null, null).getJavaFileObjects(files.toArray(Path[]::new)))
                .call();
        assertTrue(ok, messages.toString());
        return classes;
    }
}
