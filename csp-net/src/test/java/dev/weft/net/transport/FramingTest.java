package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad bytes from a raw socket: each closes its own connection only, delivers nothing, and the node goes on
 * serving good links. Frames the transport does not know refuse a live link.
 */
class FramingTest {
    private static final int MAX = 1024;
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40003);
    private final Recorder recorder = new Recorder();
    private Transport node;

    @BeforeEach
    void start() {
        node = Transport.start(new TransportConfig(Nodes.HOST, 0, null, null, Duration.ofMillis(100), Duration.ofSeconds(10), MAX), recorder, dev.weft.net.TestCarriers.loops());
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    @Timeout(20)
    void aHugeLengthPrefixClosesTheConnection() throws Exception {
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeRaw(ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0).array());
            assertTrue(raw.awaitClosed());
        }
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeRaw(ByteBuffer.allocate(8).putInt(-5).putInt(0).array());
            assertTrue(raw.awaitClosed(), "a negative length too");
        }
        assertNothingDeliveredAndGoodLinksServed();
    }

    @Test
    @Timeout(20)
    void garbageClosesTheConnection() throws Exception {
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeRaw("GET / HTTP/1.1\r\nHost: weft\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(raw.awaitClosed());
        }
        byte[] noise = new byte[600];
        new Random(42).nextBytes(noise);
        try (RawPeer raw = RawPeer.connect(node.address())) {
            // A plausible length, then noise: framed, but no handshake.
            raw.writeRaw(ByteBuffer.allocate(4 + noise.length).putInt(noise.length).put(noise).array());
            assertTrue(raw.awaitClosed());
        }
        assertNothingDeliveredAndGoodLinksServed();
    }

    @Test
    @Timeout(20)
    void aTruncatedFrameThenCloseLeavesNothingBehind() throws Exception {
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeRaw(ByteBuffer.allocate(14).putInt(100).putLong(0).putShort((short) 0).array());
        }
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.handshake(RAW, 1, 1);
            raw.writeRaw(ByteBuffer.allocate(14).putInt(100).put((byte) 16).putLong(0).put((byte) 0).array());
        }
        Recorder.Lost lost = recorder.nextLoss();
        assertEquals(RAW, lost.link().peer());
        assertTrue(lost.why().contains("closed without a goodbye"), lost.why());
        assertEquals(0, recorder.pendingFrames());
        assertServesGoodLinks();
    }

    @Test
    @Timeout(20)
    void aChannelFrameBeforeTheHandshakeClosesTheConnection() throws Exception {
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeFrame(16, 1, 1, new byte[10]);
            assertTrue(raw.awaitClosed());
        }
        assertNothingDeliveredAndGoodLinksServed();
    }

    @Test
    @Timeout(20)
    void maxFrameBytesIsEnforcedToTheByteAndClosesThatLinkOnly() throws Exception {
        Recorder rb = new Recorder();
        try (Transport b = Transport.start(Nodes.config(), rb, dev.weft.net.TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            Link nodeToB = node.link(b.address());
            nodeToB.send(frame(1));
            Link bToNode = rb.next().link();
            raw.handshake(RAW, 1, 1);
            raw.writeFrame(16, 0, 1, new byte[MAX - Frame.HEADER_BYTES]);
            assertEquals(MAX - Frame.HEADER_BYTES, recorder.next().frame().payload().length, "a frame of exactly maxFrameBytes passes");
            raw.writeFrame(16, 0, 2, new byte[MAX - Frame.HEADER_BYTES + 1]);
            Recorder.Lost lost = recorder.nextLoss();
            assertEquals(RAW, lost.link().peer());
            assertTrue(lost.why().contains("longer than maxFrameBytes " + MAX), lost.why());
            assertTrue(raw.awaitClosed());
            bToNode.send(frame(2));
            assertEquals(2, recorder.next().frame().number(), "the other link lives on");
            nodeToB.send(frame(3));
            assertEquals(3, rb.next().frame().number());
            assertFalse(nodeToB.isLost());
            assertEquals(0, recorder.pendingLosses());
            recorder.assertContract();
        }
    }

    @Test
    @Timeout(20)
    void framesTheTransportDoesNotKnowRefuseALiveLink() throws Exception {
        byte[][] bad = {
            header(9, 0), // a transport type nobody defined
            header(-16, 0), // a type above 127
            header(0, 41), // a second hello
            ByteBuffer.allocate(5).put((byte) 16).putInt(7).array(), // a channel frame shorter than its header
        };
        String[] whys = {"sent unknown type 9 on a live link", "sent unknown type -16 on a live link",
            "sent HELLO on a live link", "sent a corrupt frame: 5 bytes, shorter than the 17-byte header"};
        for (int i = 0; i < bad.length; i++) {
            try (RawPeer raw = RawPeer.connect(node.address())) {
                raw.handshake(RAW, 100 + i, 1);
                raw.writeFrame(16, 0, 1, new byte[0]);
                Link link = recorder.next().link();
                raw.writeRaw(ByteBuffer.allocate(4 + bad[i].length).putInt(bad[i].length).put(bad[i]).array(),
                        RawPeer.encode(16, 0, 2, new byte[0]));
                Recorder.Lost lost = recorder.nextLoss();
                assertSame(link, lost.link());
                assertEquals("peer " + RAW + " " + whys[i], lost.why());
                Frame goodbye = raw.readNonPing();
                assertEquals(5, goodbye.type(), "the peer hears why");
                assertEquals(lost.why(), new String(goodbye.payload(), StandardCharsets.UTF_8));
                assertTrue(raw.awaitClosed());
            }
        }
        assertEquals(0, recorder.pendingFrames(), "nothing after a refused frame is delivered");
        recorder.assertContract();
        assertServesGoodLinks();
    }

    /** A frame's type and header, with an {@code extra} bytes of payload. */
    private static byte[] header(int type, int extra) {
        return ByteBuffer.allocate(Frame.HEADER_BYTES + extra).put((byte) type).array();
    }

    private void assertNothingDeliveredAndGoodLinksServed() throws Exception {
        assertEquals(0, recorder.pendingFrames());
        assertEquals(0, recorder.pendingLosses());
        assertNull(node.links().find(RAW));
        assertServesGoodLinks();
    }

    private void assertServesGoodLinks() throws Exception {
        Recorder rb = new Recorder();
        try (Transport b = Transport.start(Nodes.config(), rb, dev.weft.net.TestCarriers.loops())) {
            b.link(node.address()).send(frame(10));
            Recorder.Received got = recorder.next();
            assertEquals(10, got.frame().number());
            got.link().send(frame(11));
            assertEquals(11, rb.next().frame().number());
        }
        recorder.nextLoss(); // b closed
        try (RawPeer raw = RawPeer.connect(node.address())) {
            raw.handshake(new NodeAddress(Nodes.HOST, 40099), System.nanoTime(), 1);
            raw.writeFrame(16, 0, 12, new byte[0]);
            assertEquals(12, recorder.next().frame().number());
        }
    }
}
