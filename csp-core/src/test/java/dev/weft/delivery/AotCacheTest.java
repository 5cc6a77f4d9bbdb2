package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up recipe of docs/startup.md on a real JDK 25 (JEP 483 and 515): a training run of a woven program
 * writes an AOT cache ({@code -XX:AOTCacheOutput}), and a later run started from it ({@code -XX:AOTCache}, with
 * {@code -XX:AOTMode=on} so that a cache it cannot use fails the run) loads the runtime's classes and the
 * program's woven classes from the cache. Skipped where no JDK 25 or newer is found (the test JVM itself, or
 * one under /usr/lib/jvm, or {@code $JAVA25}).
 */
@Timeout(600)
class AotCacheTest {
    @TempDir
    Path dir;

    @Test
    void aWovenProgramStartsFromAnAotCacheOfItsTrainingRun() throws Exception {
        Path java = jdk25();
        assumeTrue(java != null, "no JDK 25 or newer to test the AOT cache with");
        Path woven = dir.resolve("woven");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, WeaveCli.run(new String[] {"-cp", DemoPrograms.coreClasses().toString(),
                DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM).toString(), "-d", woven.toString()}, quiet,
                new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString());
        // An AOT cache takes classes from jars only: the class path is the program's jar and csp-core's.
        String classPath = jar(woven, dir.resolve("app.jar")) + File.pathSeparator
                + jar(DemoPrograms.coreClasses(), dir.resolve("csp-core.jar"));
        Path cache = dir.resolve("app.aot");

        List<String> training = run(java, "-XX:AOTCacheOutput=" + cache, "-cp", classPath, "demo.Sum");
        assertTrue(training.containsAll(DemoPrograms.SUM_OUTPUT), String.join("\n", training));
        assertTrue(Files.isRegularFile(cache), "the training run wrote no cache: " + String.join("\n", training));

        List<String> out = run(java, "-XX:AOTCache=" + cache, "-XX:AOTMode=on", "-Xlog:class+load=info",
                "-cp", classPath, "demo.Sum");
        assertTrue(out.containsAll(DemoPrograms.SUM_OUTPUT), String.join("\n", out));
        for (String cls : List.of("dev.weft.csp.Weft", "dev.weft.csp.abi.Continuation", "demo.Sum")) {
            assertTrue(out.stream().anyMatch(l -> l.endsWith("] " + cls + " source: shared objects file")),
                    cls + " was not loaded from the AOT cache:\n" + String.join("\n", out));
        }
    }

    /** Runs {@code java args...}; returns its output (stdout and stderr), failing unless it exits with 0. */
    private List<String> run(Path java, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "child", ".out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "did not end in 300 s: " + command);
        } finally {
            p.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(out);
        assertEquals(0, p.exitValue(), command + "\n" + String.join("\n", lines));
        return lines;
    }

    private static Path jar(Path classes, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    /** A java launcher of JDK 25 or newer: this JVM's, $JAVA25, or the newest under /usr/lib/jvm; else null. */
    private static Path jdk25() throws IOException {
        if (Runtime.version().feature() >= 25) {
            return Path.of(ChildJvm.java());
        }
        String env = System.getenv("JAVA25");
        if (env != null && Files.isExecutable(Path.of(env))) {
            return Path.of(env);
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (DirectoryStream<Path> homes = Files.newDirectoryStream(jvms)) {
            for (Path home : homes) {
                Path release = home.resolve("release");
                Path java = home.resolve("bin/java");
                if (Files.isRegularFile(release) && Files.isExecutable(java)
                        && Files.readAllLines(release).stream().anyMatch(l -> l.matches("JAVA_VERSION=\"(2[5-9]|[3-9]\\d).*"))) {
                    return java;
                }
            }
        }
        return null;
    }
}
