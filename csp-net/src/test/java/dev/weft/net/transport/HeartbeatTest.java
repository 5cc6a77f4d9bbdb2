package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Heartbeats keep a quiet link, silence loses it; a dead peer, a reset or a goodbye loses it at once. */
class HeartbeatTest {
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40005);
    private static final TransportConfig QUICK = Nodes.withHeartbeat(Duration.ofMillis(100), Duration.ofMillis(300));
    /** Heartbeats so slow that only the socket can tell a link is gone. */
    private static final TransportConfig SLOW = Nodes.withHeartbeat(Duration.ofSeconds(10), Duration.ofSeconds(30));

    @Test
    @Timeout(20)
    void aPeerThatGoesSilentIsLostAfterTheTimeout() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(QUICK, r, dev.weft.net.TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            raw.handshake(RAW, 1, 1);
            long start = System.nanoTime();
            Recorder.Lost lost = r.nextLoss();
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(RAW, lost.link().peer());
            assertEquals("no heartbeat from " + RAW + " for 0.3s", lost.why());
            assertTrue(ms >= 250 && ms < 3000, "lost after " + ms + " ms");
            assertTrue(raw.awaitClosed());
        }
    }

    @Test
    @Timeout(20)
    void heartbeatsKeepQuietLinksAlive() throws Exception {
        Recorder r = new Recorder();
        Recorder rb = new Recorder();
        // A timeout ten heartbeats long: a loaded machine may hold the raw peer's thread for a few of them.
        TransportConfig steady = Nodes.withHeartbeat(Duration.ofMillis(100), Duration.ofMillis(1000));
        try (Transport node = Transport.start(steady, r, dev.weft.net.TestCarriers.loops());
             Transport b = Transport.start(steady, rb, dev.weft.net.TestCarriers.loops());
             RawPeer raw = RawPeer.connect(node.address())) {
            Link toB = node.link(b.address());
            toB.send(frame(1));
            Link fromNode = rb.next().link();
            raw.handshake(RAW, 1, 1);
            long start = System.nanoTime();
            // The raw peer answers each of the node's heartbeats with one: thirty of them take three timeouts.
            for (int pings = 0; pings < 30; pings++) {
                assertEquals(4, raw.readFrame().type(), "the node sends heartbeats on a quiet link");
                raw.writeFrame(4, 0, 0, new byte[0]);
            }
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(2000), "heartbeats are paced");
            assertEquals(0, r.pendingLosses(), "a link with heartbeats is kept");
            assertEquals(0, rb.pendingLosses());
            assertFalse(toB.isLost() || fromNode.isLost());
            fromNode.send(frame(2));
            assertEquals(2, r.next().frame().number());
        }
    }

    @Test
    @Timeout(10)
    void aResetConnectionIsLostAtOnce() throws Exception {
        assertTrue(lossWhenTheRawPeer(RawPeer::reset).startsWith("connection to peer " + RAW + " failed"));
    }

    @Test
    @Timeout(10)
    void aPeerThatClosesWithoutAGoodbyeIsLostAtOnce() throws Exception {
        assertEquals("connection to peer " + RAW + " closed without a goodbye", lossWhenTheRawPeer(RawPeer::close));
    }

    private interface Ending {
        void end(RawPeer raw) throws Exception;
    }

    /** Why a link is lost when the raw peer at its other end ends it so (long before any heartbeat timeout). */
    private static String lossWhenTheRawPeer(Ending ending) throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(SLOW, r, dev.weft.net.TestCarriers.loops())) {
            RawPeer raw = RawPeer.connect(node.address());
            raw.handshake(RAW, 1, 1);
            raw.writeFrame(16, 0, 0, new byte[0]);
            Link link = r.next().link();
            ending.end(raw);
            Recorder.Lost lost = r.nextLoss();
            assertSame(link, lost.link());
            return lost.why();
        }
    }

    @Test
    @Timeout(10)
    void aGoodbyeSaysThePeerClosedAndWhy() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(SLOW, r, dev.weft.net.TestCarriers.loops())) {
            for (String reason : new String[] {"", "shutting down for maintenance"}) {
                try (RawPeer raw = RawPeer.connect(node.address())) {
                    raw.handshake(RAW, reason.length() + 1, 1);
                    raw.writeFrame(5, 0, 0, reason.getBytes(StandardCharsets.UTF_8));
                    String why = r.nextLoss().why();
                    assertEquals(reason.isEmpty() ? "peer " + RAW + " closed" : "peer " + RAW + " closed the link: " + reason, why);
                    assertTrue(raw.awaitClosed());
                }
            }
        }
    }

    @Test
    @Timeout(30)
    void aKilledPeerProcessIsLostAtOnce() throws Exception {
        Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), EchoNode.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
            NodeAddress address = NodeAddress.parse(out.readLine());
            Recorder r = new Recorder();
            try (Transport node = Transport.start(SLOW, r, dev.weft.net.TestCarriers.loops())) {
                Link link = node.link(address);
                link.send(frame(5));
                assertEquals(5, r.next().frame().number(), "the peer process echoes");
                long start = System.nanoTime();
                peer.destroyForcibly();
                Recorder.Lost lost = r.nextLoss();
                long ms = (System.nanoTime() - start) / 1_000_000;
            assertSame(link, lost.link());
                assertTrue(lost.why().startsWith("connection to peer " + address), lost.why());
                assertTrue(ms < 5000, "lost " + ms + " ms after the kill, with a 30 s heartbeat timeout");
            }
        } finally {
            peer.destroyForcibly();
            peer.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
