package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program run as the tasks of a Slurm job step, on a single-machine Slurm cluster that
 * {@code src/test/cluster/slurm-cluster.sh} starts for this class (it needs root, Debian's slurm-wlm and munge:
 * skipped where they are missing). The same by hand, from csp-net after {@code mvn test-compile}:
 * <pre>
 * sudo src/test/cluster/slurm-cluster.sh start /tmp/weft-slurm
 * SLURM_CONF=/tmp/weft-slurm/slurm.conf srun -n 3 --overcommit --kill-on-bad-exit=1 \
 *     java -cp "$CP" dev.weft.net.launch.ClusterTask slurm 'dev.weft.net.launch.LauncherTest$SumOfIndices' 10
 * sudo src/test/cluster/slurm-cluster.sh stop /tmp/weft-slurm
 * </pre>
 */
@Timeout(180)
class SlurmLaunchTest {
    private static final Path SCRIPT = Path.of("src/test/cluster/slurm-cluster.sh");
    @TempDir
    static Path cluster;
    private static boolean started;

    /** Why the cluster cannot run here, or null. */
    private static String unavailable;

    @BeforeAll
    static void startTheCluster() throws Exception {
        if (!(onPath("srun") && onPath("slurmctld") && onPath("munged"))) {
            unavailable = "Slurm is not installed (apt-get install slurm-wlm munge): the Slurm placement is not run here";
        } else if (!"root".equals(System.getProperty("user.name"))) {
            unavailable = "starting a Slurm cluster needs root: the Slurm placement is not run here";
        }
        if (unavailable != null) {
            return;
        }
        Process p = new ProcessBuilder("sh", SCRIPT.toString(), "start", cluster.toString()).inheritIO()
                .redirectInput(EngineTasks.NO_INPUT).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the Slurm cluster did not start in 60 s");
        assertEquals(0, p.exitValue(), "the Slurm cluster did not start; its logs are in " + cluster);
        started = true;
    }

    @BeforeEach
    void skipWhereSlurmCannotRun() {
        assumeTrue(unavailable == null, unavailable);
    }

    @AfterAll
    static void stopTheCluster() throws Exception {
        if (started) {
            new ProcessBuilder("sh", SCRIPT.toString(), "stop", cluster.toString()).inheritIO()
                    .redirectInput(EngineTasks.NO_INPUT).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        for (String dir : List.of("/usr/sbin", "/sbin")) { // daemons, not on a user's PATH
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** {@code srun -n <tasks>} of ClusterTask running {@code program}. */
    private static EngineTasks.Task srun(int tasks, Class<?> program, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("srun", "-n", Integer.toString(tasks), "--overcommit",
                "--kill-on-bad-exit=1"));
        cmd.addAll(EngineTasks.clusterTask(java.util.Map.of(), List.of(), "slurm", program, args).command());
        ProcessBuilder b = new ProcessBuilder(cmd);
        b.environment().put("SLURM_CONF", cluster.resolve("slurm.conf").toString());
        return EngineTasks.Task.start(b);
    }

    @Test
    void aProgramRunsOverTheTasksOfAJobStep() throws Exception {
        EngineTasks.Task step = srun(3, LauncherTest.SumOfIndices.class, "10");
        assertTrue(step.process().waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, step.process().exitValue(), step.err().get());
        assertEquals("30", step.out().get().strip(), "task 0 prints the result"); // 1*10 + 2*10
    }

    @Test
    void aLostTaskFailsTheRunNamingItWithinTheHeartbeatTimeout() throws Exception {
        EngineTasks.Task step = srun(3, EngineTasks.KillsLastNode.class);
        assertTrue(step.process().waitFor(120, TimeUnit.SECONDS));
        long ended = System.currentTimeMillis();
        String err = step.err().get();
        assertNotEquals(0, step.process().exitValue(), err);
        String host = Files.readString(cluster.resolve("slurm.conf")).lines().filter(l -> l.startsWith("NodeName="))
                .findFirst().orElseThrow().split("[= ]")[1];
        assertTrue(err.contains("node 2 (slurm task 2 on " + host + ", " + host + ":"), err);
        long tookMs = ended - EngineTasks.killedAt(err);
        // the bound, and srun's own time to end the step once task 0 has failed
        assertTrue(tookMs < EngineTasks.HEARTBEAT_TIMEOUT_MS + 3000, "took " + tookMs + " ms");
    }
}
