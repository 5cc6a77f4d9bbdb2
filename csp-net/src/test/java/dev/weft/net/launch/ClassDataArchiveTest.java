package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.launch.EngineTasks.Task;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker JVMs start from a class-data archive of the launch's class path: launchers in JVMs of their own, on a class
 * path of jars (this JVM's, its directories packed), each with a worker that logs where its classes came from.
 */
@Timeout(180)
class ClassDataArchiveTest {
    /** How the JVM logs a class it took from a dynamic archive (JDK 17 and 25 alike). */
    private static final String FROM_THE_ARCHIVE = WorkerMain.class.getName() + " source: shared objects file (top)";
    /** What a console must not show: the JVM's CDS warnings and errors, or any word about archives. */
    private static final Pattern CDS_WORDS = Pattern.compile("(?i).*(\\[warning|\\[error|cds|shar(ed|ing)|archive).*");
    @TempDir
    static Path jars;
    private static String classPath;
    @TempDir
    Path archives;
    @TempDir
    Path logs;

    /** Runs {@link LauncherTest.SumOfIndices} on 2 nodes with the worker JVM's options {@code args}; prints the sum. */
    public static final class TwoNodes {
        public static void main(String[] args) {
            System.out.println(Launcher.builder().nodes(2).heartbeat(Duration.ofMillis(200), Duration.ofSeconds(5))
                    .jvmArgs(args).build().run(LauncherTest.SumOfIndices.class, "10"));
        }
    }

    @BeforeAll
    static void packTheClassPathAsJars() throws IOException {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                Path jar = jars.resolve(entries.size() + "-" + p.getFileName() + ".jar");
                SshWorkers.pack(p, jar);
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        classPath = String.join(File.pathSeparator, entries);
    }

    @Test
    void theFirstLaunchRecordsTheArchiveAndTheNextOnesWorkerStartsFromIt() throws Exception {
        Path log = logs.resolve("worker.log");
        assertRuns(launch(log).join());
        assertFalse(log(log).contains(FROM_THE_ARCHIVE));
        assertEquals(1, published().size(), files().toString());
        assertRuns(launch(log).join());
        assertTrue(log(log).contains(FROM_THE_ARCHIVE), "the worker did not start from " + files());
        assertTrue(log(log).contains("io.netty.channel.epoll.Epoll source: shared objects file (top)"));
    }

    @Test
    void aTruncatedOrCorruptedArchiveIsNeverAFailureNorAWarning() throws Exception {
        Path log = logs.resolve("worker.log");
        assertRuns(launch(log).join());
        Path archive = published().get(0);
        long size = Files.size(archive);
        try (RandomAccessFile f = new RandomAccessFile(archive.toFile(), "rw")) {
            f.setLength(size / 2); // JDK 17 dies of a SIGBUS mapping an archive cut short
        }
        assertRuns(launch(log).join());
        assertFalse(log(log).contains(FROM_THE_ARCHIVE));
        assertEquals(1, published().size(), "the truncated archive is replaced: " + files());
        archive = published().get(0);
        byte[] garbage = new byte[64 * 1024];
        Arrays.fill(garbage, (byte) 0x5a);
        try (RandomAccessFile f = new RandomAccessFile(archive.toFile(), "rw")) {
            f.seek(Files.size(archive) / 2);
            f.write(garbage); // the same size: its name still matches; the JVM's checksum does not
        }
        assertRuns(launch(log).join());
        assertFalse(log(log).contains(FROM_THE_ARCHIVE));
    }

    @Test
    void aChangedJarMakesANewArchiveAndTheOldOneIsNotUsed() throws Exception {
        Path log = logs.resolve("worker.log");
        assertRuns(launch(log).join());
        List<Path> before = published();
        Path jar = Path.of(classPath.split(File.pathSeparator)[0]); // the test classes, packed
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 2000));
        assertRuns(launch(log).join());
        assertFalse(log(log).contains(FROM_THE_ARCHIVE), "the worker started from the old archive " + before);
        assertEquals(2, published().size(), files().toString());
        assertRuns(launch(log).join());
        assertTrue(log(log).contains(FROM_THE_ARCHIVE), "the worker did not start from the new archive " + files());
    }

    @Test
    void twoLaunchesAtOnceBothRunAndLeaveOneArchive() throws Exception {
        var first = launch(logs.resolve("first.log"));
        var second = launch(logs.resolve("second.log"));
        assertRuns(first.join());
        assertRuns(second.join());
        assertEquals(1, published().size(), files().toString());
        assertEquals(published(), files(), "a lock or a temporary file was left behind");
        Path log = logs.resolve("worker.log");
        assertRuns(launch(log).join());
        assertTrue(log(log).contains(FROM_THE_ARCHIVE));
    }

    @Test
    void theUsersOwnClassDataOptionsWinAndNothingIsDoneWhenTurnedOffOrForADirectory() throws Exception {
        String jarsOnly = classPath;
        assertTrue(ClassDataArchive.of(archives, jarsOnly, List.of()).nextWorkerOptions().get(0)
                .startsWith("-XX:ArchiveClassesAtExit="));
        for (String own : List.of("-XX:SharedArchiveFile=my.jsa", "-XX:AOTCache=app.aot", "-Xshare:off")) {
            assertEquals(List.of(), ClassDataArchive.of(archives, jarsOnly, List.of("-Xmx64m", own)).nextWorkerOptions());
        }
        assertEquals(List.of(), ClassDataArchive.of(archives, logs + File.pathSeparator + jarsOnly, List.of())
                .nextWorkerOptions());
        System.setProperty("weft.launch.archive", "false");
        try {
            assertEquals(List.of(), ClassDataArchive.forWorkers(List.of()).nextWorkerOptions());
        } finally {
            System.clearProperty("weft.launch.archive");
        }
    }

    /** A launcher JVM whose worker logs its classes' sources to {@code log}, started; its output as it ends. */
    private java.util.concurrent.CompletableFuture<Task> launch(Path log) throws IOException {
        List<String> cmd = List.of(System.getProperty("java.home") + "/bin/java",
                "-Dweft.launch.archiveDir=" + archives, "-cp", classPath, TwoNodes.class.getName(),
                "-Xlog:class+load:file=" + log);
        Task t = Task.start(new ProcessBuilder(cmd).redirectInput(EngineTasks.NO_INPUT));
        return t.process().onExit().thenApply(p -> t);
    }

    /** The launch printed the sum, exited with 0, and the JVMs said nothing about class data on the console. */
    private static void assertRuns(Task t) throws Exception {
        String out = t.out().get(10, TimeUnit.SECONDS);
        String err = t.err().get(10, TimeUnit.SECONDS);
        assertEquals(0, t.process().exitValue(), out + err);
        assertEquals("10", out.strip(), err);
        for (String line : (out + err).split("\n")) {
            assertFalse(CDS_WORDS.matcher(line).matches(), "on the console: " + line);
        }
    }

    private static String log(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    private List<Path> published() throws IOException {
        return files().stream().filter(p -> p.getFileName().toString().endsWith(".jsa")).toList();
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> all = Files.list(archives)) {
            return all.sorted().toList();
        }
    }
}
