package dev.weft.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliArgumentsTest {
    @TempDir
    Path dir;
    private Path in;
    private Path jar;

    @BeforeEach
    void inputs() throws IOException {
        in = Files.createDirectories(dir.resolve("classes"));
        jar = Files.write(dir.resolve("app.jar"), new byte[0]);
    }

    private String usage(String... args) {
        return assertThrows(UsageException.class, () -> CliArguments.parse(args)).getMessage();
    }

    @Test
    void parsesInputsClasspathAndOutputInAnyOrder() throws UsageException {
        String cp = "a.jar" + File.pathSeparator + File.pathSeparator + "b";
        CliArguments a = CliArguments.parse("-d", "out", in.toString(), "-cp", cp, jar.toString(), "-classpath", "c");
        assertEquals(List.of(in, jar), a.inputs());
        assertEquals(List.of(Path.of("a.jar"), Path.of("b"), Path.of("c")), a.classpath());
        assertEquals(Path.of("out"), a.output());
    }

    @Test
    void acceptsTheLongClassPathOption() throws UsageException {
        assertEquals(List.of(Path.of("lib")),
                CliArguments.parse("--class-path", "lib", in.toString(), "-d", "out").classpath());
    }

    @Test
    void aStarNamesEveryJarOfADirectory() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path b = Files.write(lib.resolve("b.jar"), new byte[0]);
        Path a = Files.write(lib.resolve("a.JAR"), new byte[0]);
        Files.write(lib.resolve("notes.txt"), new byte[0]);
        CliArguments args = CliArguments.parse("-cp", lib + File.separator + "*", in.toString(), "-d", "out");
        assertEquals(List.of(a, b), args.classpath());
    }

    @Test
    void preemptiveIsOffUnlessAsked() throws Exception {
        assertTrue(!CliArguments.parse(in.toString(), "-d", "out").preemptive());
        assertTrue(CliArguments.parse("--preemptive", in.toString(), "-d", "out").preemptive());
    }

    @Test
    void helpNeedsNothingElse() throws UsageException {
        assertTrue(CliArguments.parse("--help").help());
        assertTrue(CliArguments.parse(in.toString(), "-h").help());
    }

    @Test
    void refusesMissingPieces() {
        assertTrue(usage("-d", "out").contains("no input"));
        assertTrue(usage(in.toString()).contains("-d OUT"));
        assertTrue(usage(in.toString(), "-d").contains("-d needs a value"));
        assertTrue(usage(in.toString(), "-d", "out", "-cp").contains("-cp needs a value"));
        assertTrue(usage().contains("no input"));
    }

    @Test
    void refusesUnknownOptionsAndRepeatedOutput() {
        assertTrue(usage("-x", in.toString(), "-d", "out").contains("unknown option -x"));
        assertTrue(usage(in.toString(), "-d", "a", "-d", "b").contains("-d given twice"));
    }

    @Test
    void refusesInputsThatDoNotExist() {
        String m = usage(dir.resolve("nope").toString(), "-d", "out");
        assertTrue(m.contains("nope") && m.contains("does not exist"), m);
    }

    @Test
    void refusesAnOutputThatIsAFileNotNamedDotJar() throws IOException {
        Path file = Files.write(dir.resolve("notes.txt"), new byte[0]);
        assertTrue(usage(in.toString(), "-d", file.toString()).contains("not a directory"));
    }

    @Test
    void refusesAnOutputInsideAnInput() {
        assertTrue(usage(in.toString(), "-d", in.toString()).contains("fresh directory"));
        assertTrue(usage(in.toString(), "-d", in.resolve("woven").toString()).contains("fresh directory"));
    }

    @Test
    void anOutputNamedDotJarIsAJarThatMustNotBeAnInputOrADirectory() throws Exception {
        assertEquals(Path.of("out.jar"), CliArguments.parse(in.toString(), "-d", "out.jar").output());
        assertTrue(usage(jar.toString(), "-d", jar.toString()).contains("weave into a new jar"));
        Files.createDirectories(dir.resolve("taken.jar"));
        assertTrue(usage(in.toString(), "-d", dir.resolve("taken.jar").toString()).contains("is not a jar"));
    }
}
