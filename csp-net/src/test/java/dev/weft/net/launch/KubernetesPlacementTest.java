package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pods of a Kubernetes indexed Job, as JVMs on this machine: each gets the environment Kubernetes and the manifest
 * in docs/distributed.md give a pod, and resolves the pods' stable DNS names through a hosts file the test writes
 * ({@code -Djdk.net.hosts.file}), as the headless Service's DNS would.
 */
@Timeout(120)
class KubernetesPlacementTest {
    @TempDir
    Path dir;

    private static Map<String, String> pod(int index, int nodes, int port) {
        return Map.of("JOB_COMPLETION_INDEX", Integer.toString(index), "HOSTNAME", "sum-" + index,
                "WEFT_NODES", Integer.toString(nodes), "WEFT_SERVICE", "sum", "WEFT_PORT", Integer.toString(port));
    }

    @Test
    void aPodFindsItsIndexAndNode0ByItsStableName() {
        Placement p = KubernetesPlacement.of(pod(2, 3, 7077));
        assertEquals(new Placement(2, 3, new NodeAddress("sum-0.sum", 7077), "sum-2.sum", "pod sum-2"), p);
        Map<String, String> env = new HashMap<>(pod(0, 3, 7077));
        env.remove("WEFT_PORT");
        assertEquals(new Placement(0, 3, new NodeAddress("sum-0.sum", 7077), "sum-0.sum", "pod sum-0"),
                KubernetesPlacement.of(env), "node 0 listens on its own stable name, port 7077 by default");
    }

    @Test
    void aPodOutsideAnIndexedJobIsToldWhatIsMissing() {
        Map<String, String> env = new HashMap<>(pod(1, 3, 7077));
        env.remove("JOB_COMPLETION_INDEX");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KubernetesPlacement.of(env)).getMessage()
                .startsWith("JOB_COMPLETION_INDEX is not set: run this in a pod of an indexed Job"));
        env.put("JOB_COMPLETION_INDEX", "1");
        env.put("HOSTNAME", "sum-7");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KubernetesPlacement.of(env)).getMessage()
                .startsWith("HOSTNAME sum-7 is not <job>-1"));
        env.put("HOSTNAME", "sum-1");
        env.put("JOB_COMPLETION_INDEX", "3");
        env.put("HOSTNAME", "sum-3");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KubernetesPlacement.of(env)).getMessage()
                .contains("task 3 of 3 is not a node of the run"));
    }

    /** Starts the pods of a Job on {@code nodes}, their names in a hosts file; pod 0 first, as it may be. */
    private List<EngineTasks.Task> startPods(int nodes, Class<?> program, String... args) throws Exception {
        int port = EngineTasks.freePort();
        StringBuilder hosts = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            hosts.append("127.0.0.1 sum-").append(i).append(".sum\n");
        }
        Path hostsFile = Files.writeString(dir.resolve("hosts"), hosts);
        List<EngineTasks.Task> pods = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            pods.add(EngineTasks.Task.start(EngineTasks.clusterTask(pod(i, nodes, port),
                    List.of("-Djdk.net.hosts.file=" + hostsFile), "kubernetes", program, args)));
        }
        return pods;
    }

    @Test
    void threePodsRunAProgramAndPod0PrintsItsResult() throws Exception {
        List<EngineTasks.Task> pods = startPods(3, LauncherTest.SumOfIndices.class, "10");
        try {
            for (EngineTasks.Task pod : pods) {
                assertTrue(pod.process().waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, pod.process().exitValue(), pod.err().get());
            }
            assertEquals("30", pods.get(0).out().get().strip()); // 1*10 + 2*10
        } finally {
            pods.forEach(p -> p.process().destroyForcibly());
        }
    }

    @Test
    void aLostPodFailsTheRunNamingItWithinTheHeartbeatTimeout() throws Exception {
        List<EngineTasks.Task> pods = startPods(3, EngineTasks.KillsLastNode.class);
        try {
            EngineTasks.Task node0 = pods.get(0);
            assertTrue(node0.process().waitFor(60, TimeUnit.SECONDS));
            long ended = System.currentTimeMillis();
            String err = node0.err().get();
            assertEquals(1, node0.process().exitValue(), err);
            assertTrue(err.contains("node 2 (pod sum-2, sum-2.sum:"), err);
            long tookMs = ended - EngineTasks.killedAt(err);
            assertTrue(tookMs < EngineTasks.HEARTBEAT_TIMEOUT_MS + 2000, "took " + tookMs + " ms");
        } finally {
            pods.forEach(p -> p.process().destroyForcibly());
        }
    }
}
