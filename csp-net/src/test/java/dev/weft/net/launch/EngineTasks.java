package dev.weft.net.launch;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.weft.csp.Pausable;
import dev.weft.net.FreePorts;
import dev.weft.net.NetChannelInput;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Programs and task JVMs that the cluster engines' tests share. */
final class EngineTasks {
    /**
     * The input of the tests' cluster scripts: never the test JVM's, which surefire reads its commands from (ssh,
     * which the scripts run, turns its input non-blocking, and surefire's reader then fails: "std/in stream
     * corrupted").
     */
    static final ProcessBuilder.Redirect NO_INPUT = ProcessBuilder.Redirect.from(new File("/dev/null"));
    /** What the tests' nodes use: a lost node is noticed within 2 s. */
    static final String HEARTBEAT = "-Dweft.heartbeat=200,2000";
    static final long HEARTBEAT_TIMEOUT_MS = 2000;

    private EngineTasks() {
    }

    /**
     * Every worker tells node 0 its pid; node 0 kills the last node's JVM, says when on its standard error
     * ({@code killed node N at <epoch ms>}), and waits for a value that never comes.
     */
    public static final class KillsLastNode implements NetProgram<String> {
        /** When node 0 killed the last node, when node 0 is this JVM. */
        static volatile long killedAt;

        @Override
        @Pausable
        public String run(Cluster c) {
            if (c.index() > 0) {
                c.node().<long[]>one2net("pids").write(new long[] {c.index(), ProcessHandle.current().pid()});
                c.node().<String>net2one("never." + c.index()).read();
                return null;
            }
            NetChannelInput<long[]> pids = c.node().net2one("pids");
            long last = -1;
            for (int i = 1; i < c.size(); i++) {
                long[] got = pids.read();
                if (got[0] == c.size() - 1) {
                    last = got[1];
                }
            }
            killedAt = System.currentTimeMillis();
            System.err.println("killed node " + (c.size() - 1) + " at " + killedAt);
            ProcessHandle.of(last).ifPresent(ProcessHandle::destroyForcibly);
            c.node().<String>net2one("never").read();
            return "unreachable";
        }
    }

    /** A process whose standard output and error are read as they come, so that it never blocks on them. */
    record Task(Process process, CompletableFuture<String> out, CompletableFuture<String> err) {
        static Task start(ProcessBuilder b) throws IOException {
            Process p = b.start();
            p.getOutputStream().close();
            return new Task(p, readAll(p.getInputStream()), readAll(p.getErrorStream()));
        }

        private static CompletableFuture<String> readAll(InputStream in) {
            CompletableFuture<String> all = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    all.complete(new String(in.readAllBytes(), UTF_8));
                } catch (IOException e) {
                    all.completeExceptionally(e);
                }
            }, "task-output");
            t.setDaemon(true);
            t.start();
            return all;
        }
    }

    /** {@code java [jvmArgs] -cp <this class path> ClusterTask <engine> <program> [args]} with {@code env} added. */
    static ProcessBuilder clusterTask(Map<String, String> env, List<String> jvmArgs, String engine, Class<?> program,
                                      String... args) {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", HEARTBEAT));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterTask.class.getName(), engine,
                program.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(cmd);
        b.environment().putAll(env);
        return b;
    }

    static int freePort() throws IOException {
        return FreePorts.belowTheEphemeralRange(); // see FreePorts: the nodes bind port 0 before this is bound
    }

    /** The epoch millisecond at which node 0 said it killed a node, from its standard error. */
    static long killedAt(String err) {
        int at = err.indexOf("killed node ");
        if (at < 0) {
            throw new AssertionError("node 0 did not kill a node; it said: " + err);
        }
        String line = err.substring(at, err.indexOf('\n', at));
        return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }
}
