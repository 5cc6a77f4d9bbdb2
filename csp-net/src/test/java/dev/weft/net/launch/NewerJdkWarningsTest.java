package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On JDK 24 and later a networked program warns of nothing it did not do itself: not of Kryo's use of
 * {@code sun.misc.Unsafe} (JEP 498; the codec turns it off) nor, in the worker JVMs a launcher starts, of Netty's
 * native library (JEP 472; the launcher grants them native access). Runs a 2-node launch on such a JDK, found under
 * {@code /usr/lib/jvm} or given as {@code -Dweft.test.newerJdk=<java home>}; skipped where there is none (the
 * build's own JDK 17 prints neither warning).
 */
class NewerJdkWarningsTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void aLaunchOnJdk24OrLaterPrintsNoWarning() throws Exception {
        Optional<Path> java = newerJdk();
        assumeTrue(java.isPresent(), "no JDK 24 or later on this machine");
        Path out = dir.resolve("out"), err = dir.resolve("err");
        // The program's own JVM is granted native access by its user (README); its workers by the launcher.
        Process p = new ProcessBuilder(java.get().toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Main.class.getName())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(150, TimeUnit.SECONDS), "the launch did not end");
        String errors = Files.readString(err);
        assertEquals(0, p.exitValue(), errors);
        assertEquals(List.of("10"), Files.readAllLines(out), errors);
        assertTrue(errors.lines().noneMatch(l -> l.startsWith("WARNING")), errors);
    }

    @Test
    void workersGetNativeAccessUnlessTheirOptionsSayOtherwise() {
        List<String> plain = Launcher.builder().build().workerCommand("127.0.0.1:1", "P", List.of());
        assertTrue(plain.contains("--enable-native-access=ALL-UNNAMED"), plain.toString());
        List<String> own = Launcher.builder().jvmArgs("--enable-native-access=io.netty.common").build()
                .workerCommand("127.0.0.1:1", "P", List.of());
        assertEquals(List.of("--enable-native-access=io.netty.common"),
                own.stream().filter(a -> a.startsWith("--enable-native-access")).toList());
    }

    /** Node 0 of a 2-node launch, each node encoding and decoding a value with the default codec. */
    public static final class Main {
        public static void main(String[] args) {
            System.out.println(Launcher.builder().nodes(2).build().run(LauncherTest.SumOfIndices.class, "10"));
        }
    }

    /** The java of a JDK 24 or later: the one given, or the newest under /usr/lib/jvm. */
    private static Optional<Path> newerJdk() throws IOException {
        String given = System.getProperty("weft.test.newerJdk");
        if (given != null) {
            return Optional.of(Path.of(given, "bin", "java"));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> feature(h) >= 24 && Files.isExecutable(h.resolve("bin/java")))
                    .max((a, b) -> Integer.compare(feature(a), feature(b))).map(h -> h.resolve("bin/java"));
        }
    }

    /** The feature release of the JDK at {@code home}, from its {@code release} file; 0 if unknown. */
    private static int feature(Path home) {
        try {
            Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(Files.readString(home.resolve("release")));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
