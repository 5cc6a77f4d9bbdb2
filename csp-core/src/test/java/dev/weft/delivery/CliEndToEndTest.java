package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Compiles a program, weaves it with the command line (in process), runs the woven program in a child JVM. */
@Timeout(120)
class CliEndToEndTest {
    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int weave(String... args) {
        return WeaveCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void theWovenProgramRunsItsFibers() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        Files.writeString(classes.resolve("demo/notes.txt"), "a resource");
        Path woven = dir.resolve("woven");
        Path core = DemoPrograms.coreClasses();

        int status = weave("-cp", core.toString(), classes.toString(), "-d", woven.toString());

        String summary = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        Matcher m = Pattern.compile("(\\d+) class(es)?, (\\d+) woven").matcher(summary);
        assertTrue(m.find(), summary);
        assertTrue(Integer.parseInt(m.group(3)) >= 1, "the program has pausable code to weave: " + summary);
        assertEquals("a resource", Files.readString(woven.resolve("demo/notes.txt")));

        assertTheWovenSumRuns(woven);
    }

    /** Runs demo.Sum from {@code woven} (a directory or a jar) and csp-core in a child JVM. */
    private void assertTheWovenSumRuns(Path woven) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60),
                List.of("-cp", woven + File.pathSeparator + DemoPrograms.coreClasses(), "demo.Sum"));
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(DemoPrograms.SUM_OUTPUT, r.lines(), r.toString());
    }

    @Test
    void weaveErrorsArePrintedWithFileAndLineAndTheExitStatusIsOne() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Bad", DemoPrograms.BAD);
        Path woven = dir.resolve("woven");

        int status = weave("-cp", DemoPrograms.coreClasses().toString(), classes.toString(), "-d", woven.toString());

        String errors = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, errors);
        assertTrue(errors.lines().anyMatch(l -> l.startsWith("demo/Bad.java:" + DemoPrograms.BAD_LINE + ": ")), errors);
        assertFalse(Files.exists(woven.resolve("demo/Bad.class")), "a class with errors is not written");
    }

    @Test
    void anOutputNamedDotJarIsAJarThatRuns() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        Path jar = dir.resolve("out/sum-woven.jar");

        assertEquals(0, weave("-cp", DemoPrograms.coreClasses().toString(), classes.toString(), "-d", jar.toString()),
                err.toString(StandardCharsets.UTF_8));

        assertTrue(Files.isRegularFile(jar), jar + " is a file");
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            assertNotNull(zip.getEntry("demo/Sum.class"));
        }
        assertTheWovenSumRuns(jar);
    }

    @Test
    void withoutCspCoreOnTheClasspathOneHintStandsForEveryCallIntoIt() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);

        assertEquals(1, weave(classes.toString(), "-d", dir.resolve("woven").toString()));

        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("weft: csp-core is not on the classpath; "), lines.get(0));
        assertTrue(lines.get(0).endsWith("add csp-core's jar (e.g. -cp csp-core.jar) and weave again"), lines.get(0));
        assertTrue(lines.get(1).startsWith("weft: "), lines.get(1));
    }
}
