package dev.weft.bench.net;

import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;

/**
 * Weft's synchronous net ping-pong: two {@link Node}s in one JVM on loopback, a synchronous net channel each
 * way. One round trip: the client writes a value to the server's node, the server reads it and writes it back,
 * the client reads it. Each write returns once the remote reader has taken the value, so a round trip is two
 * synchronous network writes, overlapped as far as the protocol lets them.
 *
 * <p>From plain threads (no scheduler), the client is the calling thread and the server a thread that echoes
 * until its node closes. On fibers, each {@link #roundTrips} is a {@link Weft#run} of a client fiber and a
 * server fiber on the given scheduler.
 */
public final class WeftNetPingPong implements AutoCloseable {
    /** The value sent: a boxed Integer whose bytes a raw Netty ping-pong can match ({@link WeftNet#encodedBytes}). */
    public static final Integer VALUE = 1_000_000;

    private final Scheduler fibers;
    private final Node clientNode;
    private final Node serverNode;
    private final NetChannelInput<Integer> ping;
    private final NetChannelInput<Integer> pong;
    private final NetChannelOutput<Integer> pingOut;
    private final NetChannelOutput<Integer> pongOut;
    private final Thread echoer;

    /** Starts the two nodes (each with an I/O thread of its own) and their channels; {@code fibers} null for plain threads. */
    public WeftNetPingPong(Scheduler fibers) {
        this(fibers, false);
    }

    /**
     * As {@link #WeftNetPingPong(Scheduler)}; with {@code onCarriers}, the nodes' I/O runs on the fibers' carriers
     * ({@link Node.Builder#scheduler}): no thread but the carriers is on a value's path.
     */
    public WeftNetPingPong(Scheduler fibers, boolean onCarriers) {
        this.fibers = fibers;
        clientNode = onCarriers ? Node.builder().scheduler(fibers).start() : Node.start();
        serverNode = onCarriers ? Node.builder().scheduler(fibers).start() : Node.start();
        ping = serverNode.net2one();
        pong = clientNode.net2one();
        pingOut = clientNode.one2net(ping.location());
        pongOut = serverNode.one2net(pong.location());
        if (fibers == null) {
            echoer = new Thread(this::echoUntilClosed, "weft-net-echo");
            echoer.setDaemon(true);
            echoer.start();
        } else {
            echoer = null;
        }
    }

    private void echoUntilClosed() {
        try {
            for (;;) {
                pongOut.write(ping.read());
            }
        } catch (PoisonException closed) {
            // the server node closed: the echo is over
        }
    }

    /** Makes {@code n} round trips; returns how many came back as sent. */
    public int roundTrips(int n) {
        if (fibers == null) {
            return client(n);
        }
        int[] ok = new int[1];
        Weft.run(fibers, () -> {
            Weft.spawn(() -> {
                for (int i = 0; i < n; i++) {
                    pongOut.write(ping.read());
                }
            });
            ok[0] = client(n);
        });
        return ok[0];
    }

    @Pausable
    private int client(int n) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            pingOut.write(VALUE);
            if (VALUE.equals(pong.read())) {
                ok++;
            }
        }
        return ok;
    }

    @Override
    public void close() {
        clientNode.close();
        serverNode.close();
        if (echoer != null) {
            try {
                echoer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
