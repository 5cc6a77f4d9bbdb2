package dev.weft.samples.net;

import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.NodeAddress;
import dev.weft.samples.CommsTime;
import java.time.Duration;

/**
 * CommsTime spread over three JVMs: prefix and consumer here, delta and successor each in a JVM of its own,
 * wired by name through a name server that this JVM runs. The processes are CommsTime's own: they do not
 * know their channels are networked. Each cycle is four communications, three of them across the network.
 *
 * <p>Run, after {@code mvn -q -B package -DskipTests}: {@code java -cp 'samples/target/classes:samples/target/lib/*'
 * dev.weft.samples.net.DistributedCommsTime [cycles]}. It starts the two other JVMs itself.
 */
public final class DistributedCommsTime {
    private DistributedCommsTime() {
    }

    /** With no role: runs the whole network ({@code args[0]} cycles, default 20,000). With a role: one node. */
    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && (args[0].equals("delta") || args[0].equals("successor"))) {
            runNode(args[0], NodeAddress.parse(args[1]));
            return;
        }
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        double ns = run(cycles);
        System.out.printf("Distributed CommsTime: %.1f us per communication (%d cycles, 3 JVMs)%n", ns / 1000, cycles);
    }

    /** Runs the network for {@code cycles} cycles, the other nodes in JVMs of their own; ns per communication. */
    public static double run(int cycles) throws Exception {
        try (Node node = Node.builder().serveNames().start(); Jvms jvms = new Jvms();
             Scheduler s = Scheduler.create(1)) {
            NetChannelInput<Integer> c = node.net2one("commstime.c");
            NetChannelInput<Integer> d = node.net2one("commstime.d");
            jvms.start(DistributedCommsTime.class, "delta", node.address().toString());
            jvms.start(DistributedCommsTime.class, "successor", node.address().toString());
            long[] elapsed = new long[1];
            Weft.run(s, () -> {
                NetChannelOutput<Integer> a = node.one2net("commstime.a", Duration.ofSeconds(60));
                Parallel.run(
                        () -> CommsTime.prefix(0, c, a),
                        () -> elapsed[0] = CommsTime.consume(d, cycles));
            });
            if (!jvms.awaitAll(60)) {
                throw new IllegalStateException("a node of the network did not end cleanly");
            }
            return elapsed[0] / (4.0 * cycles);
        }
    }

    /** Delta or successor, in a JVM of its own; it ends when the consumer poisons the ring. */
    private static void runNode(String role, NodeAddress names) {
        try (Node node = Node.builder().nameServer(names).start(); Scheduler s = Scheduler.create(1)) {
            if (role.equals("delta")) {
                NetChannelInput<Integer> a = node.net2one("commstime.a");
                Weft.run(s, () -> delta(node, a));
            } else {
                NetChannelInput<Integer> b = node.net2one("commstime.b");
                Weft.run(s, () -> successor(node, b));
            }
        }
    }

    @Pausable
    private static void delta(Node node, NetChannelInput<Integer> a) {
        NetChannelOutput<Integer> b = node.one2net("commstime.b", Duration.ofSeconds(60));
        NetChannelOutput<Integer> d = node.one2net("commstime.d", Duration.ofSeconds(60));
        CommsTime.delta(a, b, d);
    }

    @Pausable
    private static void successor(Node node, NetChannelInput<Integer> b) {
        CommsTime.successor(b, node.one2net("commstime.c", Duration.ofSeconds(60)));
    }
}
