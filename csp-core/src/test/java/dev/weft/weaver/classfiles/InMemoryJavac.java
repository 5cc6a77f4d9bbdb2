package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles Java sources held in strings with the running JDK's compiler, class files into a directory. */
final class InMemoryJavac {
    private InMemoryJavac() {
    }

    /** A source file whose text is in memory; {@code className} is its binary name ({@code pkg.Name}). */
    private static final class StringSource extends SimpleJavaFileObject {
        private final String text;

        StringSource(String className, String text) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /**
     * Compiles {@code sources} (binary class name to source text) for {@code release} with csp-core on the
     * classpath; fails the test with javac's diagnostics if they do not compile. Returns {@code outDir}.
     */
    static Path compile(Path outDir, int release, Map<String, String> sources) {
        return compile(outDir, release, "-g", sources);
    }

    /** As {@link #compile(Path, int, Map)} with the given debug option ({@code -g:none} for none). */
    static Path compile(Path outDir, int release, String debug, Map<String, String> sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "the tests need a JDK, not a JRE");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> units = new ArrayList<>();
        sources.forEach((name, text) -> units.add(new StringSource(name, text)));
        List<String> options = List.of("--release", Integer.toString(release), debug, "-Xlint:-options",
                "-d", outDir.toString(), "-cp", ClassFiles.coreClasses() + File.pathSeparator + outDir);
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            boolean ok = javac.getTask(null, files, diagnostics, options, null, units).call();
            assertTrue(ok, () -> "the snippet does not compile with --release " + release + ":\n"
                    + diagnostics.getDiagnostics().stream().map(Object::toString).collect(Collectors.joining("\n")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return outDir;
    }
}
