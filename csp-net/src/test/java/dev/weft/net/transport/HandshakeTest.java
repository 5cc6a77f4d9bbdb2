package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import io.netty.channel.ChannelPipeline;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The handshake on the wire, spoken by a hand-written peer: what a node accepts, what it refuses, and restarts. */
class HandshakeTest {
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40001);

    @Test
    @Timeout(20)
    void aValidHandshakeOpensALinkBothWays() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, dev.weft.net.TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            long nodeLinkId = raw.handshake(RAW, 11, 5);
            assertNotEquals(0, nodeLinkId);
            raw.writeFrame(16, 9, 1, new byte[] {1, 2, 3});
            Recorder.Received got = r.next();
            assertEquals(RAW, got.link().peer());
            assertEquals(9, got.frame().channel());
            assertSame(got.link(), node.link(RAW), "the node's one link to the raw peer");
            got.link().send(new Frame((byte) 17, 4, 2));
            Frame back = raw.readNonPing();
            assertEquals(17, back.type());
            assertEquals(4, back.channel());
            r.assertContract();
        }
    }

    /** Once the link is up, the handshake has left both connections' pipelines, its place taken by the heartbeat. */
    @Test
    @Timeout(20)
    void theHandshakeLeavesThePipelineOnceTheLinkIsUp() throws Exception {
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(), new Recorder(), dev.weft.net.TestCarriers.loops());
             Transport b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops())) {
            Link ab = a.link(b.address());
            ab.send(frame(1));
            assertEquals(1, rb.next().frame().number()); // up at both ends: the acceptor before its accept, the dialler on it
            for (Link link : List.of(ab, b.link(a.address()))) {
                ChannelPipeline p = ((PeerLink) link).connection().channel().pipeline();
                assertNull(p.get(Handshake.class), link + ": " + p.names());
                assertNotNull(p.get(Heartbeat.class), link + ": " + p.names());
                assertSame(p.last(), p.get(Connection.class), "the connection delivers, last");
            }
        }
    }

    @Test
    @Timeout(20)
    void theDiallersHelloNamesItAndItsQueuedFramesFollowTheAccept() throws Exception {
        Recorder r = new Recorder();
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName(Nodes.HOST));
             Transport node = Transport.start(config(), r, dev.weft.net.TestCarriers.loops())) {
            NodeAddress rawAddress = new NodeAddress(Nodes.HOST, server.getLocalPort());
            Link link = node.link(rawAddress);
            for (int i = 0; i < 10; i++) {
                link.send(frame(i));
            }
            try (RawPeer raw = RawPeer.accept(server)) {
                ByteBuffer hello = ByteBuffer.wrap(raw.readHello());
                hello.position(9); // magic, newest and oldest version, flags
                long incarnation = hello.getLong();
                long linkId = hello.getLong();
                hello.position(hello.position() + 16);
                int port = Short.toUnsignedInt(hello.getShort());
                byte[] hostBytes = new byte[hello.getShort()];
                hello.get(hostBytes);
                String host = new String(hostBytes, StandardCharsets.UTF_8);
                assertEquals(1 << 20, hello.getInt(), "version 3: the node's maxFrameBytes");
                assertEquals(0, hello.remaining());
                assertEquals(node.address(), new NodeAddress(host, port), "the hello carries the node's listening address");
                assertNotEquals(0, incarnation);
                assertNotEquals(0, linkId, "a dialler names its link");
                raw.writeFrame(0, 0, 0, RawPeer.hello(rawAddress, false, 77, 0));
                raw.writeFrame(2, 0, 123, new byte[0]);
                for (int i = 0; i < 10; i++) {
                    assertEquals(i, raw.readNonPing().number(), "queued frames go out after the handshake, in order");
                }
                raw.writeFrame(16, 0, 99, new byte[0]);
                Recorder.Received got = r.next();
                assertSame(link, got.link());
                assertEquals(99, got.frame().number());
            }
        }
    }

    @Test
    @Timeout(20)
    void aWrongMagicAWrongVersionOrAChannelFrameFirstClosesTheConnectionAndDeliversNothing() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, dev.weft.net.TestCarriers.loops())) {
            byte[] wrongMagic = RawPeer.hello(RAW, false, 1, 1);
            wrongMagic[3] = 'X';
            byte[][] firstFrames = {wrongMagic, RawPeer.hello(RAW, 9, 8, false, 1, 1, 1 << 20)};
            for (byte[] hello : firstFrames) {
                try (RawPeer raw = RawPeer.connect(node.address())) {
                    raw.writeRaw(RawPeer.encode(0, 0, 0, hello), RawPeer.encode(16, 0, 0, new byte[0]));
                    assertTrue(raw.awaitClosed());
                }
            }
            try (RawPeer raw = RawPeer.connect(node.address())) {
                raw.writeFrame(16, 0, 0, RawPeer.hello(RAW, false, 1, 1));
                assertTrue(raw.awaitClosed());
            }
            try (RawPeer raw = RawPeer.connect(node.address())) {
                raw.writeFrame(0, 0, 0, Arrays.copyOf(RawPeer.hello(RAW, false, 1, 1), 20));
                assertTrue(raw.awaitClosed());
            }
            assertEquals(0, r.pendingFrames());
            assertEquals(0, r.pendingLosses(), "no link was made, so none was lost");
            try (RawPeer good = RawPeer.connect(node.address())) {
                good.handshake(RAW, 1, 1);
                good.writeFrame(16, 0, 5, new byte[0]);
                assertEquals(5, r.next().frame().number(), "the node still serves good peers");
            }
        }
    }

    @Test
    @Timeout(20)
    void aPeerClaimingToBeTheNodeItselfIsRefused() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, dev.weft.net.TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeRaw(RawPeer.encode(0, 0, 0, RawPeer.hello(node.address(), false, 1, 1)), RawPeer.encode(16, 0, 0, new byte[0]));
            assertTrue(raw.awaitClosed());
            assertEquals(0, r.pendingFrames());
        }
    }

    @Test
    @Timeout(20)
    void aRestartedPeerIsANewPeer() throws Exception {
        assertReplaced(2, 1, "peer " + RAW + " restarted");
    }

    @Test
    @Timeout(20)
    void aNewLinkFromTheSameRunReplacesTheOldOne() throws Exception {
        assertReplaced(1, 2, "peer " + RAW + " dropped the link and dialled a new one");
    }

    /** A second connection from the raw peer, with {@code incarnation} and {@code linkId}, replaces its first link. */
    private static void assertReplaced(long incarnation, long linkId, String why) throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, dev.weft.net.TestCarriers.loops()); RawPeer first = RawPeer.connect(node.address())) {
            first.handshake(RAW, 1, 1);
            first.writeFrame(16, 0, 1, new byte[0]);
            Link old = r.next().link();
            try (RawPeer second = RawPeer.connect(node.address())) {
                second.handshake(RAW, incarnation, linkId);
                Recorder.Lost lost = r.nextLoss();
                assertSame(old, lost.link());
                assertEquals(why, lost.why());
                Frame goodbye = first.readNonPing();
                assertEquals(5, goodbye.type(), "the old connection hears why it is dropped");
                assertEquals(why, new String(goodbye.payload(), StandardCharsets.UTF_8));
                assertTrue(first.awaitClosed());
                second.writeFrame(16, 0, 2, new byte[0]);
                Recorder.Received got = r.next();
                assertNotSame(old, got.link());
                assertSame(got.link(), node.link(RAW));
                assertFalse(got.link().isLost());
            }
            r.assertContract();
        }
    }

    @Test
    @Timeout(20)
    void aSecondConnectionForALiveLinkIsRedundant() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, dev.weft.net.TestCarriers.loops()); RawPeer first = RawPeer.connect(node.address())) {
            first.handshake(RAW, 1, 1);
            first.writeFrame(16, 0, 1, new byte[0]);
            Link link = r.next().link();
            try (RawPeer second = RawPeer.connect(node.address())) {
                second.writeFrame(0, 0, 0, RawPeer.hello(RAW, false, 1, 1));
                second.readHello();
                assertEquals(3, second.readNonPing().type(), "REDUNDANT");
                assertTrue(second.awaitClosed());
            }
            first.writeFrame(16, 0, 2, new byte[0]);
            Recorder.Received got = r.next();
            assertSame(link, got.link(), "the live link keeps its connection");
            assertEquals(0, r.pendingLosses());
        }
    }
}
