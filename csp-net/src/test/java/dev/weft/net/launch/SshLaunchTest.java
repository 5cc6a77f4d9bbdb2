package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers started over ssh on hosts that are sshds in network namespaces of this machine, each with an address
 * of its own on a bridge (10.79.0.2, 10.79.0.3), as {@code src/test/cluster/ssh-hosts.sh} makes them; node 0 listens
 * on the bridge (10.79.0.1). Needs root, iproute2 and openssh-server: skipped where they are missing.
 */
@Timeout(180)
class SshLaunchTest {
    private static final Path SCRIPT = Path.of("src/test/cluster/ssh-hosts.sh");
    private static final String[] HOSTS = {"10.79.0.2", "10.79.0.3"};
    /** A worker that has not joined gives up after this: then no run leaves one behind on a host. */
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(15);
    @TempDir
    static Path keys;
    private static boolean started;

    /** Why the hosts cannot run here, or null. */
    private static String unavailable;

    @BeforeAll
    static void startTheHosts() throws Exception {
        if (!(Files.isExecutable(Path.of("/usr/sbin/sshd")) && Files.isExecutable(Path.of("/usr/bin/ssh"))
                && (Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"))))) {
            unavailable = "sshd, ssh or ip is not installed (apt-get install openssh-server iproute2): ssh workers are"
                    + " not run here";
        } else if (!"root".equals(System.getProperty("user.name"))) {
            unavailable = "network namespaces need root: ssh workers are not run here";
        }
        if (unavailable != null) {
            return;
        }
        Process p = new ProcessBuilder("sh", SCRIPT.toString(), "start", keys.toString(), "2").inheritIO()
                .redirectInput(EngineTasks.NO_INPUT).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the ssh hosts did not start in 60 s");
        started = true; // stop what was made, also if it failed half-way
        assertEquals(0, p.exitValue(), "the ssh hosts did not start");
    }

    @BeforeEach
    void skipWhereTheHostsCannotRun() {
        assumeTrue(unavailable == null, unavailable);
    }

    /** Every worker JVM a case started on a host has ended: joined or not, none outlives its run for long. */
    @AfterEach
    void noWorkerIsLeftOnAnyHost() throws Exception {
        if (unavailable != null) {
            return;
        }
        long end = System.nanoTime() + JOIN_TIMEOUT.toNanos() + TimeUnit.SECONDS.toNanos(30);
        List<String> left = workersOnTheHosts();
        while (!left.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(100);
            left = workersOnTheHosts();
        }
        assertEquals(List.of(), left, "worker JVMs left on the hosts");
    }

    /** The command lines of the worker JVMs running in the hosts' namespaces. */
    private static List<String> workersOnTheHosts() throws Exception {
        List<String> workers = new ArrayList<>();
        for (int i = 1; i <= HOSTS.length; i++) {
            Process p = new ProcessBuilder("ip", "netns", "pids", "weft-ssh-" + i).redirectErrorStream(true).start();
            String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            for (String pid : pids.split("\\s+")) {
                Path cmdline = Path.of("/proc", pid, "cmdline");
                if (!pid.isEmpty() && Files.exists(cmdline)) {
                    try {
                        String cmd = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace('\0', ' ');
                        if (cmd.contains(WorkerMain.class.getName())) {
                            workers.add(pid + ": " + cmd);
                        }
                    } catch (NoSuchFileException ended) {
                        // it ended while we looked
                    }
                }
            }
        }
        return workers;
    }

    @AfterAll
    static void stopTheHosts() throws Exception {
        if (started) {
            new ProcessBuilder("sh", SCRIPT.toString(), "stop", keys.toString(), "2").inheritIO()
                    .redirectInput(EngineTasks.NO_INPUT).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static Launcher.Builder launcher() {
        return Launcher.builder().bind("10.79.0.1", 0).sshHosts(HOSTS)
                .sshOptions("-i", keys.resolve("id").toString(), "-o", "StrictHostKeyChecking=no", "-o",
                        "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR")
                .sshJava(System.getProperty("java.home") + "/bin/java")
                .heartbeat(Duration.ofMillis(200), Duration.ofMillis(EngineTasks.HEARTBEAT_TIMEOUT_MS))
                .joinTimeout(JOIN_TIMEOUT);
    }

    /** Each worker tells node 0 where it listens and its class path; node 0 returns them, a line per worker. */
    public static final class WhereAreTheWorkers implements NetProgram<String> {
        @Override
        @Pausable
        public String run(Cluster c) {
            if (c.index() > 0) {
                c.node().<String>one2net("where").write(c.node().address() + " " + System.getProperty("java.class.path"));
                return null;
            }
            NetChannelInput<String> where = c.node().net2one("where");
            List<String> lines = new ArrayList<>();
            for (int i = 1; i < c.size(); i++) {
                lines.add(where.read());
            }
            return String.join("\n", lines.stream().sorted().toList());
        }
    }

    @Test
    void workersOnTwoHostsGetTheClassPathShippedAndRemoveItWhenTheyEnd() throws Exception {
        assertEquals(30L, launcher().build().run(LauncherTest.SumOfIndices.class, "10"));
        String[] workers = launcher().build().run(WhereAreTheWorkers.class).split("\n");
        assertEquals(2, workers.length);
        for (int i = 0; i < 2; i++) {
            String[] where = workers[i].split(" ", 2);
            assertTrue(where[0].startsWith(HOSTS[i] + ":"), "a worker listens on its host's address: " + workers[i]);
            assertTrue(where[1].startsWith("/tmp/weft-") && where[1].contains("-classes.jar"),
                    "the class path shipped as jars: " + where[1]);
            Path shipped = Path.of(where[1].split(":")[0]).getParent();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Files.exists(shipped) && System.nanoTime() < end) {
                Thread.sleep(50); // the worker's shell removes it after the worker's exit, which the run does not wait for
            }
            assertFalse(Files.exists(shipped), shipped + " is left on the host");
        }
    }

    @Test
    void workersOnASharedFileSystemUseThisClassPath() {
        String[] workers = launcher().sharedClassPath().build().run(WhereAreTheWorkers.class).split("\n");
        for (String w : workers) {
            assertEquals(System.getProperty("java.class.path"), w.split(" ", 2)[1]);
        }
    }

    @Test
    void aLostSshWorkerFailsTheRunNamingItWithinTheHeartbeatTimeout() {
        LaunchException e = assertThrows(LaunchException.class,
                () -> launcher().build().run(EngineTasks.KillsLastNode.class));
        long tookMs = System.currentTimeMillis() - EngineTasks.KillsLastNode.killedAt;
        assertTrue(e.getMessage().startsWith("node 2 (ssh 10.79.0.3, 10.79.0.3:"), e.getMessage());
        assertTrue(tookMs < EngineTasks.HEARTBEAT_TIMEOUT_MS + 1000, "took " + tookMs + " ms");
    }

    @Test
    void anUnreachableHostFailsTheRunNamingIt() {
        LaunchException e = assertThrows(LaunchException.class,
                () -> launcher().sshHosts("10.79.0.99").sshOptions("-o", "ConnectTimeout=1").build()
                        .run(LauncherTest.SumOfIndices.class));
        assertTrue(e.getMessage().startsWith("the ssh worker on 10.79.0.99 (pid "), e.getMessage());
        assertTrue(e.getMessage().endsWith("exited with code 255"), e.getMessage());
    }
}
