package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import dev.weft.net.TestCarriers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nodes of other protocol versions, spoken by a real socket: the node speaks the older version with a peer one
 * version apart, either way, and refuses a peer with no version in common, naming both.
 */
@Timeout(20)
class VersionTest {
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40002);
    /** What the node says of its own versions when it refuses a peer. */
    private static final String NODE_SPEAKS = "this node speaks versions 2 to 3";

    @Test
    void aPeerOfTheVersionBeforeLinksAndIsSpokenToInIt() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            raw.handshake(RawPeer.hello(RAW, 2, 1, false, 1, 1, 0)); // version 2 says no maxFrameBytes
            raw.writeFrame(16, 3, 1, new byte[0]);
            Link link = r.next().link();
            assertEquals(2, ((PeerLink) link).version());
            // Version 2 did not say the peer's limit: a frame as long as this node's own limit goes out.
            byte[] longest = new byte[(1 << 20) - Frame.HEADER_BYTES];
            link.send(new Frame((byte) 17, 3, 2, longest));
            assertEquals(longest.length, raw.readNonPing().payload().length);
        }
    }

    @Test
    void aPeerOfTheNextVersionLinksAndSpeaksThisOne() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            // version 4 (also speaking 3) appends a field this node does not know, and accepts frames of 4 KiB
            raw.handshake(RawPeer.hello(RAW, 4, 3, false, 1, 1, 4096));
            raw.writeFrame(16, 3, 1, new byte[0]);
            Link link = r.next().link();
            assertEquals(3, ((PeerLink) link).version());
            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                    () -> link.send(new Frame((byte) 17, 3, 2, new byte[4096])));
            assertTrue(tooLong.getMessage().contains("peer " + RAW + "'s maxFrameBytes 4096"), tooLong.getMessage());
            link.send(new Frame((byte) 17, 3, 3, new byte[4096 - Frame.HEADER_BYTES]));
            assertEquals(3, raw.readNonPing().number(), "the link goes on: only the long frame was refused, at its sender");
            assertTrue(!link.isLost());
        }
    }

    @Test
    void aPeerTwoVersionsAheadIsRefusedNamingBothVersions() throws Exception {
        assertRefused(RawPeer.hello(RAW, 5, 4, false, 1, 1, 1 << 20), "speaks protocol versions 4 to 5, " + NODE_SPEAKS);
    }

    @Test
    void aPeerOfVersion1IsRefusedNamingBothVersions() throws Exception {
        assertRefused(RawPeer.helloVersion1(RAW, 1), "speaks protocol version 1, " + NODE_SPEAKS);
    }

    /** An accepted connection whose hello is {@code hello}: the peer hears why in a goodbye; no link is made. */
    private static void assertRefused(byte[] hello, String why) throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(), r, TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            raw.writeFrame(0, 0, 0, hello);
            raw.readHello();
            Frame goodbye = raw.readNonPing();
            assertEquals(Control.GOODBYE, goodbye.type());
            String said = new String(goodbye.payload(), StandardCharsets.UTF_8);
            assertTrue(said.contains(why), said);
            assertTrue(said.contains("upgrade a cluster one version at a time"), said);
            assertTrue(raw.awaitClosed());
            assertEquals(0, r.pendingFrames());
            assertEquals(0, r.pendingLosses(), "no link was made");
        }
    }

    @Test
    void aLinkDialledToANodeOfNoCommonVersionIsLostNamingBoth() throws Exception {
        Recorder r = new Recorder();
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName(Nodes.HOST));
             Transport node = Transport.start(config(), r, TestCarriers.loops())) {
            NodeAddress old = new NodeAddress(Nodes.HOST, server.getLocalPort());
            Link link = node.link(old);
            link.send(new Frame((byte) 16, 1, 1));
            try (RawPeer raw = RawPeer.accept(server)) {
                raw.readHello();
                raw.writeFrame(0, 0, 0, RawPeer.helloVersion1(old, 7));
                Recorder.Lost lost = r.nextLoss();
                assertEquals(link, lost.link());
                assertEquals("peer " + old + " speaks protocol version 1, " + NODE_SPEAKS
                        + ": nodes link only when both speak one version (each version speaks the one before too),"
                        + " so upgrade a cluster one version at a time", lost.why());
                assertEquals(lost.why(), link.whyLost(), "what waiting writers are told");
            }
        }
    }
}
