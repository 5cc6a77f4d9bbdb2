package dev.weft.net.launch;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.csp.Pausable;
import dev.weft.csp.runtime.Carrier;
import dev.weft.net.FreePorts;
import dev.weft.net.NetChannelInput;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher with real worker JVMs: a run, a worker that fails, a worker killed during a run. */
@Timeout(120)
class LauncherTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** The pids of a run's worker JVMs, as node 0 heard them (node 0 runs in this JVM). */
    static final Queue<Long> WORKER_PIDS = new ConcurrentLinkedQueue<>();

    private static Launcher launcher(int nodes) {
        return Launcher.builder().nodes(nodes).heartbeat(Duration.ofMillis(200), TIMEOUT).build();
    }

    /** Each worker sends its index times the argument and its pid to node 0, which adds the products up. */
    public static final class SumOfIndices implements NetProgram<Long> {
        @Override
        @Pausable
        public Long run(Cluster c) {
            long times = c.intArg(0, 1);
            if (c.index() > 0) {
                c.node().<long[]>one2net("sum.in").write(new long[] {c.index() * times, ProcessHandle.current().pid()});
                return null;
            }
            NetChannelInput<long[]> in = c.node().net2one("sum.in");
            long sum = 0;
            for (int i = 1; i < c.size(); i++) {
                long[] got = in.read();
                sum += got[0];
                WORKER_PIDS.add(got[1]);
            }
            return sum;
        }
    }

    /** Node 2 fails its part. */
    public static final class FailsOnNode2 implements NetProgram<String> {
        @Override
        @Pausable
        public String run(Cluster c) {
            if (c.index() == 2) {
                throw new IllegalStateException("node 2 cannot go on");
            }
            if (c.index() == 0) {
                c.node().<String>net2one("never").read();
            }
            return "unreachable";
        }
    }

    /** Node 2 tells node 0 its pid; node 0 kills it and waits for a value that never comes. */
    public static final class KillsNode2 implements NetProgram<String> {
        @Override
        @Pausable
        public String run(Cluster c) {
            if (c.index() == 0) {
                NetChannelInput<long[]> pids = c.node().net2one("pids");
                long node2 = -1;
                for (int i = 1; i < c.size(); i++) { // every pid first: the kill ends the run at once
                    long[] got = pids.read();
                    WORKER_PIDS.add(got[1]);
                    if (got[0] == 2) {
                        node2 = got[1];
                    }
                }
                KILLED_AT.add(System.nanoTime());
                ProcessHandle.of(node2).ifPresent(ProcessHandle::destroyForcibly);
                c.node().<String>net2one("never").read();
                return "unreachable";
            }
            c.node().<long[]>one2net("pids").write(new long[] {c.index(), ProcessHandle.current().pid()});
            c.node().<String>net2one("never." + c.index()).read();
            return null;
        }
    }

    static final Queue<Long> KILLED_AT = new ConcurrentLinkedQueue<>();

    /** Each worker sends node 0 the names of its JVM's Weft threads other than its carriers, while it runs. */
    public static final class WeftThreads implements NetProgram<String> {
        @Override
        @Pausable
        public String run(Cluster c) {
            if (c.index() > 0) {
                StringBuilder others = new StringBuilder();
                int carriers = 0;
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (t instanceof Carrier) {
                        carriers++;
                    } else if (t.getName().startsWith("weft")) {
                        others.append(' ').append(t.getName());
                    }
                }
                c.node().<String>one2net("threads").write(carriers + " carriers," + others);
                return null;
            }
            NetChannelInput<String> in = c.node().net2one("threads");
            StringBuilder all = new StringBuilder();
            for (int i = 1; i < c.size(); i++) {
                all.append(in.read()).append('\n');
            }
            return all.toString();
        }
    }

    /** A worker JVM has its carriers and one other Weft thread, the carrier watchdog. */
    @Test
    void aWorkerJvmHasItsCarriersAndTheWatchdog() {
        String carriers = Runtime.getRuntime().availableProcessors() + " carriers,";
        assertEquals(carriers + " weft-carrier-watchdog\n" + carriers + " weft-carrier-watchdog\n",
                launcher(3).run(WeftThreads.class));
    }

    @Test
    void aProgramRunsOnThreeNodesAndEveryWorkerJvmEnds() throws Exception {
        WORKER_PIDS.clear();
        assertEquals(30L, launcher(3).run(SumOfIndices.class, "10")); // 1*10 + 2*10
        assertEquals(2, WORKER_PIDS.size());
        assertAllEnded(WORKER_PIDS);
    }

    @Test
    void aWorkerStartedByHandJoinsTheLauncherAtItsAddress() throws Exception {
        int port = FreePorts.belowTheEphemeralRange();
        // as on another machine: java ... dev.weft.net.launch.WorkerMain <launcher host:port> <program class>,
        // started before the launcher
        Process byHand = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-cp",
                System.getProperty("java.class.path"), WorkerMain.class.getName(), "127.0.0.1:" + port,
                SumOfIndices.class.getName()).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(byHand.getErrorStream(), UTF_8));
            // The JVM may warn first (on JDK 24+, about sun.misc.Unsafe in a library): read on to the worker's word.
            StringBuilder said = new StringBuilder();
            String line;
            // The worker's node says its name server (the launcher) cannot be reached yet, and asks again.
            while ((line = err.readLine()) != null && !line.contains("cannot be reached")) {
                said.append(line).append('\n');
            }
            assertTrue(line != null, "the worker said " + said);
            Launcher launcher = Launcher.builder().nodes(2).remoteNodes(1).bind("127.0.0.1", port)
                    .heartbeat(Duration.ofMillis(200), TIMEOUT).build();
            CompletableFuture<Long> sum = CompletableFuture.supplyAsync(() -> launcher.run(SumOfIndices.class, "100"));
            assertEquals(300L, sum.get(60, TimeUnit.SECONDS)); // nodes 1 and 2: 100 + 200
            assertTrue(byHand.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, byHand.exitValue());
        } finally {
            byHand.destroyForcibly();
        }
    }

    @Test
    void aWorkerWhoseLauncherIsGoneGivesUpJoiningAfterItsWait() throws Exception {
        int port = FreePorts.belowTheEphemeralRange(); // nothing listens there: the launcher has gone
        Process orphan = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-Dweft.joinWait=1500",
                "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName(), "127.0.0.1:" + port,
                SumOfIndices.class.getName()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String said = new String(orphan.getErrorStream().readAllBytes(), UTF_8); // to its exit
            assertTrue(orphan.waitFor(60, TimeUnit.SECONDS), "the worker still waits to join: " + said);
            assertEquals(3, orphan.exitValue(), said);
            assertTrue(said.contains("could not join the launcher within 1500 ms"), said);
        } finally {
            orphan.destroyForcibly();
        }
    }

    @Test
    void oneNodeRunsInThisJvmAlone() {
        assertEquals(0L, launcher(1).run(SumOfIndices.class));
    }

    @Test
    void aWorkerThatFailsItsPartFailsTheRunNamingIt() {
        try {
            launcher(3).run(FailsOnNode2.class);
            fail("the run should have failed");
        } catch (LaunchException e) {
            assertTrue(e.getMessage().startsWith("node 2 ("), e.getMessage());
            assertTrue(e.getMessage().contains("node 2 cannot go on") || e.getMessage().contains("exited with code 1"),
                    e.getMessage());
        }
    }

    @Test
    void aWorkerKilledDuringARunFailsItNamingTheNodeWithinTheHeartbeatTimeout() throws Exception {
        WORKER_PIDS.clear();
        KILLED_AT.clear();
        try {
            launcher(3).run(KillsNode2.class);
            fail("the run should have failed");
        } catch (LaunchException e) {
            long tookMs = (System.nanoTime() - KILLED_AT.peek()) / 1_000_000;
            assertTrue(e.getMessage().startsWith("node 2 ("), e.getMessage());
            assertTrue(tookMs < TIMEOUT.toMillis() + 1000, "took " + tookMs + " ms");
        }
        assertEquals(2, WORKER_PIDS.size());
        assertAllEnded(WORKER_PIDS);
    }

    private static void assertAllEnded(Queue<Long> pids) throws Exception {
        for (long pid : List.copyOf(pids)) {
            var handle = ProcessHandle.of(pid);
            if (handle.isPresent()) {
                handle.get().onExit().get(10, TimeUnit.SECONDS);
                assertFalse(handle.get().isAlive(), "worker JVM " + pid + " is still running");
            }
        }
    }
}
