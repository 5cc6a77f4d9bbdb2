package dev.weft.net.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.net.launch.NetProgram;
import dev.weft.net.launch.WorkerMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The distributed farm and CommsTime on three nodes, each node a JVM in a network namespace of its own
 * ({@link NetnsLab}), over links that delay, jitter, reorder, lose, partition and throttle. Every run either
 * completes with every value delivered exactly once and in each writer's order (the programs check it), or, for a
 * partition longer than the heartbeat timeout, fails with the lost link within the bound; never a hang.
 *
 * <p>Needs root, iproute2, iptables and python3; skipped otherwise. A plain build runs the two partitions, which
 * check the failure detector's bound both ways; the others (the slow link's 16 MB value alone takes over two
 * minutes a program) run with {@code -Dweft.netns=all}, as {@code bench/netem.sh} does.
 * Each scenario prints one line, {@code netns: <scenario> / <program>: <outcome>}.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class MisbehavingNetworkTest {
    /** The nodes' heartbeat: the launcher's defaults, 1 s of quiet before a heartbeat, lost after 5 s of silence. */
    private static final long TIMEOUT_MS = 5_000;
    /** What a loaded 2-core machine may add to the bound: the launcher's teardown, a busy carrier. */
    private static final long SLACK_MS = 3_000;
    private static final boolean ALL = "all".equals(System.getProperty("weft.netns"));
    private static final String EVERY = "mvn verify runs the partitions only (2 minutes); every scenario (13 minutes):"
            + " -Dweft.netns=all, as bench/netem.sh does";

    enum Program {
        FARM(NetnsFarm.class), COMMSTIME(NetnsCommsTime.class);

        final Class<? extends NetProgram<String>> type;

        Program(Class<? extends NetProgram<String>> type) {
            this.type = type;
        }
    }

    private interface LabStep {
        void apply(NetnsLab lab) throws Exception;
    }

    @BeforeAll
    static void needsNamespaces() {
        assumeTrue(System.getProperty("weft.test.carriers") == null,
                "runs in the default execution only: its nodes are JVMs of their own, which the carriers' setting does not reach");
        String missing = NetnsLab.missing();
        assumeTrue(missing == null, () -> "skipped: " + missing);
    }

    @ParameterizedTest
    @EnumSource(Program.class)
    void delayOf50msWithJitterOf10ms(Program p) throws Exception {
        assumeTrue(ALL, EVERY);
        completes("delay 50 ms +- 10 ms", p, lab -> lab.delay(50, 10), null, 0);
    }

    @ParameterizedTest
    @EnumSource(Program.class)
    void lossOf5Percent(Program p) throws Exception {
        assumeTrue(ALL, EVERY);
        completes("loss 5%", p, lab -> lab.loss(5), null, 0);
    }

    @ParameterizedTest
    @EnumSource(Program.class)
    void reordering(Program p) throws Exception {
        assumeTrue(ALL, EVERY);
        completes("reorder (25% at once, the rest 10 ms late)", p, lab -> lab.reorder(10, 25), null, 0);
    }

    @ParameterizedTest
    @EnumSource(Program.class)
    void aPartitionShorterThanTheTimeoutIsSurvived(Program p) throws Exception {
        completes("partition 0-1 of 2 s", p, lab -> { }, lab -> {
            lab.partition(0, 1);
            Thread.sleep(2_000); // the partition's length: the scenario itself
            lab.heal(0, 1);
        }, 0);
    }

    @ParameterizedTest
    @EnumSource(Program.class)
    void aPartitionLongerThanTheTimeoutFailsWithinTheBound(Program p) throws Exception {
        Run run = run(p, lab -> { }, lab -> lab.partition(0, 1), 60_000, 0);
        report("partition 0-1 for good", p, run);
        assertTrue(run.outcome.startsWith("failed"), run.outcome + run.output());
        assertTrue(run.outcome.contains("lost") || run.outcome.contains("LinkLost"), run.outcome);
        assertTrue(run.sinceDisruptionMs <= TIMEOUT_MS + SLACK_MS,
                "failed " + run.sinceDisruptionMs + " ms after the partition, bound " + TIMEOUT_MS + " ms + slack");
    }

    @ParameterizedTest
    @EnumSource(Program.class)
    void aSlowLinkCarries16MBWhileItsHeartbeatsGetThrough(Program p) throws Exception {
        assumeTrue(ALL, EVERY);
        completes("1 Mbit/s, 16 MB value", p, lab -> lab.rate(1000), null, 16_000_000);
    }

    private void completes(String scenario, Program p, LabStep before, LabStep during, int bulkBytes) throws Exception {
        Run run = run(p, before, during, 10_000, bulkBytes);
        report(scenario, p, run);
        assertTrue(run.outcome.startsWith("completed"), run.outcome + run.output());
    }

    private static void report(String scenario, Program p, Run run) {
        System.out.println("netns: " + scenario + " / " + p.name().toLowerCase() + ": " + run.outcome
                + (run.sinceDisruptionMs >= 0 ? " (" + run.sinceDisruptionMs + " ms after the disruption began)" : ""));
    }

    /** What a run came to. */
    private record Run(String outcome, long sinceDisruptionMs, List<StringBuilder> outputs) {
        String output() {
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < outputs.size(); i++) {
                all.append("\n--- node in ").append(NetnsLab.ns(i)).append(":\n").append(outputs.get(i));
            }
            return all.toString();
        }
    }

    /**
     * Runs {@code p} in a fresh lab: {@code before} applied first, {@code during} once node 0 says it is running;
     * waits, with a bound, for node 0's outcome and for every JVM to end.
     */
    private static Run run(Program p, LabStep before, LabStep during, int minMillis, int bulkBytes) throws Exception {
        try (NetnsLab lab = NetnsLab.start()) {
            before.apply(lab);
            List<Process> jvms = new ArrayList<>();
            jvms.add(lab.spawn(0, java(NetnsNode0.class.getName(), p.type.getName(), String.valueOf(minMillis),
                    String.valueOf(bulkBytes))));
            for (int i = 1; i < NetnsLab.NODES; i++) {
                jvms.add(lab.spawn(i, java("-Dweft.bind=" + NetnsLab.address(i), WorkerMain.class.getName(),
                        NetnsLab.address(0) + ":" + NetnsNode0.PORT, p.type.getName())));
            }
            List<StringBuilder> outputs = new ArrayList<>();
            BlockingQueue<String> node0 = new LinkedBlockingQueue<>();
            for (Process jvm : jvms) {
                outputs.add(collect(jvm, jvms.indexOf(jvm) == 0 ? node0 : null));
            }
            long disrupted = -1;
            // Bounds: JVMs start and join in well under a minute; a run is its minimum time plus, on a slow link,
            // the bulk value's time (16 MB at 1 Mbit/s: 134 s).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90 + bulkBytes / 100_000);
            for (String line; ; ) {
                line = node0.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    fail("node 0 has not ended in time: a hang" + new Run("", -1, outputs).output());
                }
                if (line.equals("running") && during != null && disrupted < 0) {
                    disrupted = System.nanoTime();
                    during.apply(lab);
                } else if (line.startsWith("completed") || line.startsWith("failed")) {
                    long since = disrupted < 0 ? -1 : (System.nanoTime() - disrupted) / 1_000_000;
                    for (Process jvm : jvms) {
                        assertTrue(jvm.waitFor(TIMEOUT_MS + SLACK_MS, TimeUnit.MILLISECONDS),
                                "a JVM has not ended after node 0's outcome" + new Run(line, since, outputs).output());
                    }
                    if (line.startsWith("completed")) {
                        for (Process jvm : jvms) {
                            assertEquals(0, jvm.exitValue(), "a JVM failed" + new Run(line, since, outputs).output());
                        }
                    }
                    return new Run(line, since, outputs);
                }
            }
        }
    }

    private static List<String> java(String... args) {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-Xmx512m",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Keeps a JVM's output; node 0's lines also go to {@code lines}. */
    private static StringBuilder collect(Process p, BlockingQueue<String> lines) {
        StringBuilder all = new StringBuilder();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (all) {
                        all.append(line).append('\n');
                    }
                    if (lines != null) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the JVM was destroyed
            }
        }, "netns-output");
        t.setDaemon(true);
        t.start();
        return all;
    }
}
