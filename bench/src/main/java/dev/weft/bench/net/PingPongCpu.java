package dev.weft.bench.net;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Processor time per round trip of {@link TwoProcessPingPong}'s Weft ping-pong, per carrier: what wall time on a
 * shared machine cannot tell apart, since it counts only what each carrier thread itself ran. This JVM's carrier
 * is the client's, a {@link PingPongServer} JVM's the server's; after {@code warmUp} round trips it reads each
 * carrier's user and kernel ticks ({@code /proc/<pid>/task/<tid>/stat}) and its time on the processor in
 * nanoseconds ({@code schedstat}), makes {@code n} round trips, and reads them again.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.net.PingPongCpu [N] [WARMUP]</pre>
 * Prints one {@code CPU} line: microseconds per round trip of each carrier (on the processor, user, kernel),
 * wall time per round trip, and the load average.
 */
public final class PingPongCpu {
    /** A scheduler's carrier thread: {@code weft-<scheduler>-<worker>}. */
    private static final Pattern CARRIER = Pattern.compile("weft-\\d+-\\d+");

    private PingPongCpu() {
    }

    /** Runs {@code args[0]} round trips (default 50,000) after {@code args[1]} (default 150,000) of warm-up. */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 150_000;
        String java = System.getProperty("java.home") + "/bin/java";
        String cp = System.getProperty("java.class.path");
        Process server = new ProcessBuilder(java, "-cp", cp, PingPongServer.class.getName(), "weft")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        PrintStream in = new PrintStream(server.getOutputStream(), true, StandardCharsets.UTF_8);
        try (Scheduler carrier = Scheduler.create(1); Node node = Node.builder().scheduler(carrier).start()) {
            String ready = out.readLine();
            while (ready != null && !ready.startsWith("READY ")) { // a JVM option's notice, say
                ready = out.readLine();
            }
            if (ready == null) {
                throw new IllegalStateException("the server ended before it was ready");
            }
            NetChannelInput<Object> pong = node.net2one();
            NetChannelOutput<Object> ping = node.one2net(NetChannelLocation.parse(ready.substring("READY ".length())));
            Weft.run(carrier, () -> ping.write(pong.location().toString()));
            roundTrips(carrier, ping, pong, warmUp);
            long[] client0 = carrierTimes(ProcessHandle.current().pid());
            long[] server0 = carrierTimes(server.pid());
            long wall0 = System.nanoTime();
            roundTrips(carrier, ping, pong, n);
            long wall = System.nanoTime() - wall0;
            long[] client = minus(carrierTimes(ProcessHandle.current().pid()), client0);
            long[] server1 = minus(carrierTimes(server.pid()), server0);
            System.out.printf("CPU us/rt client run %.2f user %.2f sys %.2f | server run %.2f user %.2f sys %.2f"
                    + " | wall %.2f | n %d | load %s%n",
                    client[0] / 1e3 / n, client[1] * 1e4 / n, client[2] * 1e4 / n,
                    server1[0] / 1e3 / n, server1[1] * 1e4 / n, server1[2] * 1e4 / n,
                    wall / 1e3 / n, n, Files.readString(Path.of("/proc/loadavg")).trim());
        } finally {
            in.close();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static void roundTrips(Scheduler carrier, NetChannelOutput<Object> ping, NetChannelInput<Object> pong,
            int n) {
        Weft.run(carrier, () -> {
            for (int i = 0; i < n; i++) {
                ping.write(WeftNetPingPong.VALUE);
                if (!WeftNetPingPong.VALUE.equals(pong.read())) {
                    throw new IllegalStateException("the echo differs");
                }
            }
        });
    }

    /** The process's carrier threads together: ns on the processor, user ticks, kernel ticks. */
    private static long[] carrierTimes(long pid) throws IOException {
        long[] sum = new long[3];
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (!CARRIER.matcher(Files.readString(task.resolve("comm")).trim()).matches()) {
                    continue;
                }
                sum[0] += Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                String stat = Files.readString(task.resolve("stat"));
                // fields after the command's closing parenthesis: state is field 3, utime 14, stime 15
                List<String> f = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
                sum[1] += Long.parseLong(f.get(11));
                sum[2] += Long.parseLong(f.get(12));
            }
        }
        return sum;
    }

    private static long[] minus(long[] a, long[] b) {
        return new long[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    }
}
