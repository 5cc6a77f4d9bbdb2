package dev.weft.bench.harness;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How often the threads of a 2-carrier scheduler give up the processor while two fibers play ping-pong: the
 * voluntary context switches of each Weft thread (Linux, /proc/self/task/TID/status), over {@code seconds}
 * seconds of ping-pong, and the round trips made. An idle carrier that naps beside the busy one shows here.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.harness.PingPongSwitches [seconds]</pre>
 */
public final class PingPongSwitches {
    private PingPongSwitches() {
    }

    public static void main(String[] args) throws IOException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 2;
        try (Scheduler s = Scheduler.create(2)) {
            One2OneChannel<Integer> ping = Channel.one2one();
            One2OneChannel<Integer> pong = Channel.one2one();
            Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1))); // carriers started
            Map<String, Long> before = voluntarySwitches();
            long[] trips = new long[1];
            Weft.run(s, () -> Parallel.run(() -> {
                long end = System.nanoTime() + seconds * 1_000_000_000L;
                while (System.nanoTime() - end < 0) {
                    ping.out().write(1);
                    pong.in().read();
                    trips[0]++;
                }
                ping.out().poison();
            }, () -> {
                try {
                    for (;;) {
                        pong.out().write(ping.in().read());
                    }
                } catch (PoisonException e) {
                    // done
                }
            }));
            Map<String, Long> after = voluntarySwitches();
            long total = 0;
            for (Map.Entry<String, Long> e : after.entrySet()) {
                long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
                total += d;
                System.out.printf("%-24s %8d voluntary switches%n", e.getKey(), d);
            }
            System.out.printf("RESULT weftVoluntarySwitchesPerSecond %d%nRESULT roundTripsPerSecond %d%n",
                    total / seconds, trips[0] / seconds);
        }
    }

    /** Voluntary context switches of each live thread whose name starts with "weft", by "name (tid)". */
    private static Map<String, Long> voluntarySwitches() throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                    if (!name.startsWith("weft")) {
                        continue;
                    }
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            out.put(name + " (" + task.getFileName() + ")", Long.parseLong(line.split("\\s+")[1]));
                        }
                    }
                } catch (IOException ended) {
                    // the thread ended as it was read
                }
            }
        }
        return out;
    }
}
