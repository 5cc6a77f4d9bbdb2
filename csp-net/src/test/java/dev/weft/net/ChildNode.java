package dev.weft.net;

import dev.weft.net.internal.HostilePeerTest;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A node in a JVM of its own, for tests that need real processes: {@code ChildNode <nameServer> <role>}. It
 * prints {@code ready} once set up, then plays its role until it is killed.
 */
public final class ChildNode {
    private ChildNode() {
    }

    /** Plays {@code args[1]} against the name server at {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        Node.Builder b = TestCarriers.builder().nameServer(NodeAddress.parse(args[0]))
                .heartbeat(Duration.ofMillis(200), Duration.ofSeconds(2));
        if (args.length > 2) {
            b.secret(args[2]);
        }
        Node node = b.start();
        switch (args[1]) {
            case "victim": {
                // takes writes to "victim.in" but never reads them; writes once to "parent.in"
                node.net2one("victim.in");
                System.out.println("ready");
                System.out.flush();
                node.<String>one2net("parent.in").write("from the victim");
                Thread.currentThread().join(); // until killed
                break;
            }
            case "echo": {
                NetChannelInput<String> in = node.net2one("echo.in");
                NetChannelOutput<String> out = node.one2net("echo.out");
                System.out.println("ready");
                System.out.flush();
                for (;;) {
                    out.write("echo: " + in.read());
                }
            }
            case "guarded": {
                // an echo that also says how many gadgets this JVM has built; and an input never read
                NetChannelInput<String> in = node.net2one("echo.in");
                node.net2one("guarded.sink");
                NetChannelOutput<String> out = node.one2net("echo.out");
                System.out.println("ready");
                System.out.flush();
                for (;;) {
                    String v = in.read();
                    out.write(v.equals("gadgets?") ? "gadgets: " + HostilePeerTest.Gadget.BUILT.get() : "echo: " + v);
                }
            }
            case "barrier": {
                // one party of the net barrier "child.barrier", syncing until killed
                NetBarrier barrier = node.connectBarrier("child.barrier", 1);
                System.out.println("ready");
                System.out.flush();
                for (;;) {
                    barrier.sync();
                }
            }
            case "mobile": {
                // the new home of a net input written to "mobile.carrier": reads it until killed
                NetChannelInput<NetChannelInput<Integer>> carrier = node.net2one("mobile.carrier");
                System.out.println("ready");
                System.out.flush();
                NetChannelInput<Integer> moved = carrier.read();
                for (;;) {
                    moved.read();
                }
            }
            default:
                throw new IllegalArgumentException("unknown role " + args[1]);
        }
    }

    /** Starts a child JVM playing {@code role}, and waits until it says it is ready. */
    public static Process start(NodeAddress nameServer, String role) throws IOException {
        return start(nameServer, role, null);
    }

    /** As {@link #start(NodeAddress, String)}, its links proving {@code secret} (null: none). */
    public static Process start(NodeAddress nameServer, String role, String secret) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        String carriers = TestCarriers.jvmOption();
        if (carriers != null) {
            cmd.add(carriers);
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ChildNode.class.getName());
        cmd.add(nameServer.toString());
        cmd.add(role);
        if (secret != null) {
            cmd.add(secret);
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        try { // a read of a pipe cannot be interrupted: bound it, and kill the child if it says nothing
            line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return e.toString();
                }
            }).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new IOException("child node '" + role + "' did not say it was ready", e);
        }
        if (!"ready".equals(line)) {
            p.destroyForcibly();
            throw new IOException("child node '" + role + "' did not start: said " + line);
        }
        return p;
    }
}
