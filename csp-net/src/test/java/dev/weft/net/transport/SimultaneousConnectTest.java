package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two nodes dial each other at the same moment, many times over: both keep the same one TCP connection (the one
 * dialled by the node with the smaller address), each keeps its link object, and the frames each queued before
 * the handshake arrive once and in order.
 */
class SimultaneousConnectTest {
    private static final int ROUNDS = 60;
    private static final int FRAMES = 200;

    @Test
    @Timeout(60)
    void simultaneousConnectsSettleOnOneConnection() throws Exception {
        settle(ROUNDS, null);
    }

    @Test
    @Timeout(60)
    void alsoWhenBothProveASecret() throws Exception {
        settle(ROUNDS / 3, "shared");
    }

    private static void settle(int rounds, String secret) throws Exception {
        int duels = 0;
        for (int round = 0; round < rounds; round++) {
            Recorder ra = new Recorder();
            Recorder rb = new Recorder();
            try (Transport a = Transport.start(config(secret, null), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(secret, null), rb, dev.weft.net.TestCarriers.loops())) {
                CyclicBarrier together = new CyclicBarrier(2);
                CompletableFuture<Link> dialA = Nodes.inThread(() -> dialAndSend(together, a, b));
                CompletableFuture<Link> dialB = Nodes.inThread(() -> dialAndSend(together, b, a));
                Link ab = dialA.join();
                Link ba = dialB.join();
                for (int i = 0; i < FRAMES; i++) {
                    Recorder.Received atB = rb.next();
                    assertSame(ba, atB.link(), "round " + round + ": b hears a on the link it dialled itself");
                    assertEquals(i, atB.frame().number(), "round " + round + ": b's frame " + i);
                    Recorder.Received atA = ra.next();
                    assertSame(ab, atA.link(), "round " + round + ": a hears b on the link it dialled itself");
                    assertEquals(i, atA.frame().number(), "round " + round + ": a's frame " + i);
                }
                // One more frame each way: had a second connection carried frames too, copies would come first.
                ab.send(frame(-1));
                ba.send(frame(-1));
                assertEquals(-1, rb.next().frame().number(), "round " + round);
                assertEquals(-1, ra.next().frame().number(), "round " + round);
                assertSame(ab, a.link(b.address()));
                assertSame(ba, b.link(a.address()));
                assertFalse(ab.isLost() || ba.isLost(), "round " + round);

                Channel atA = ((PeerLink) ab).connection().channel();
                Channel atB = ((PeerLink) ba).connection().channel();
                assertEquals(atA.localAddress(), atB.remoteAddress(), "round " + round + ": both keep the same connection");
                assertEquals(atA.remoteAddress(), atB.localAddress(), "round " + round + ": both keep the same connection");
                boolean aDialled = ((InetSocketAddress) atA.remoteAddress()).getPort() == b.address().port();
                boolean aSmaller = a.address().toString().compareTo(b.address().toString()) < 0;
                int redundant = a.links().redundant.get() + b.links().redundant.get();
                if (redundant > 0) {
                    duels++;
                    assertEquals(aSmaller, aDialled, "round " + round + ": the smaller address's dial survives");
                }
                assertEquals(0, ra.pendingFrames() + rb.pendingFrames() + ra.pendingLosses() + rb.pendingLosses());
                ra.assertContract();
                rb.assertContract();
            }
        }
        assertTrue(duels > 0, "no round had both dials reach the handshake: the rule went untested");
    }

    private static Link dialAndSend(CyclicBarrier together, Transport from, Transport to) {
        try {
            together.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        Link link = from.link(to.address());
        for (int i = 0; i < FRAMES; i++) {
            link.send(frame(i));
        }
        return link;
    }
}
