package dev.weft.bench.startup;

import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelInput;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.Launcher;
import dev.weft.net.launch.NetProgram;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a launched worker JVM pays to start, with and without the launcher's class-data archive
 * ({@code weft.launch.archive}, see docs/startup.md): launches of a 2-node program, each in a fresh launcher JVM
 * ({@code java -cp <this class path> Launcher 2 ...}), the two kinds interleaved, their order swapped every round.
 * The worker reports its JVM's processor time (every thread) and its uptime as it starts its part; the launch's
 * wall time is the launcher JVM's, start to exit. The archive is recorded by a first launch, not counted. Prints the
 * medians:
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.startup.LaunchStart [rounds, default 7]</pre>
 */
public final class LaunchStart {
    private LaunchStart() {
    }

    /** Each worker sends node 0 its JVM's processor time and uptime in ms, as its part starts; node 0 returns them. */
    public static final class WorkerStart implements NetProgram<String> {
        @Override
        @Pausable
        public String run(Cluster c) {
            if (c.index() > 0) {
                long cpuMs = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toMillis();
                long upMs = ManagementFactory.getRuntimeMXBean().getUptime();
                c.node().<long[]>one2net("started").write(new long[] {cpuMs, upMs});
                return null;
            }
            NetChannelInput<long[]> started = c.node().net2one("started");
            long[] got = started.read();
            return "workerCpuMs " + got[0] + " workerUpMs " + got[1];
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path dir = Files.createTempDirectory("weft-launch-start");
        launch(dir, true); // records the archive
        Map<String, List<Long>> figures = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (boolean archive : r % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                String[] got = launch(dir, archive).split(" ");
                String kind = archive ? "archive" : "none";
                for (int i = 0; i < got.length; i += 2) {
                    figures.computeIfAbsent(kind + " " + got[i], k -> new ArrayList<>()).add(Long.parseLong(got[i + 1]));
                }
            }
        }
        System.out.println("java " + System.getProperty("java.version") + ", medians of " + rounds + " (ms):");
        figures.forEach((k, v) -> System.out.printf("RESULT %-24s %6d   %s%n", k, median(v), v));
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** One launch of {@link WorkerStart}: its result and "launchWallMs ...". */
    private static String launch(Path dir, boolean archive) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dweft.launch.archive=" + archive, "-Dweft.launch.archiveDir=" + dir, "-cp",
                System.getProperty("java.class.path"), Launcher.class.getName(), "2", WorkerStart.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor() != 0 || !out.startsWith("workerCpuMs")) {
            throw new IllegalStateException("the launch failed (" + p.exitValue() + "): " + out);
        }
        return out + " launchWallMs " + (System.nanoTime() - t0) / 1_000_000;
    }

    private static long median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }
}
