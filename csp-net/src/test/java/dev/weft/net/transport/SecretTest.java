package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared secret: proved by both sides, never sent, and a mismatch refuses the link with a reason. */
class SecretTest {
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40002);
    private static final String SECRET = "correct horse battery staple";

    @Test
    @Timeout(20)
    void nodesWithTheSameSecretLink() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(SECRET, null), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(SECRET, null), rb, dev.weft.net.TestCarriers.loops())) {
            a.link(b.address()).send(frame(1));
            Recorder.Received got = rb.next();
            got.link().send(frame(2));
            assertEquals(2, ra.next().frame().number());
        }
    }

    @Test
    @Timeout(20)
    void aWrongSecretRefusesTheLinkOnBothSides() throws Exception {
        assertRefused("one secret", "another secret");
    }

    @Test
    @Timeout(20)
    void aSecretOnOneSideOnlyRefusesTheLinkOnBothSides() throws Exception {
        assertRefused(SECRET, null);
        assertRefused(null, SECRET);
    }

    private static void assertRefused(String dialler, String acceptor) throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(dialler, null), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(acceptor, null), rb, dev.weft.net.TestCarriers.loops())) {
            Link link = a.link(b.address());
            link.send(frame(1));
            Recorder.Lost lost = ra.nextLoss();
            assertSame(link, lost.link());
            assertTrue(lost.why().contains("secret"), lost.why());
            assertTrue(lost.why().contains(b.address().toString()), lost.why());
            assertTrue(link.isLost());
            // The acceptor made no link: nothing was delivered to it, and an unproven peer cannot make it lose one.
            assertNull(b.links().find(a.address()));
            assertEquals(0, rb.pendingFrames());
            assertEquals(0, rb.pendingLosses());
        }
    }

    @Test
    @Timeout(20)
    void theProofIsAnHmacOverBothHellosAndTheSecretNeverGoesOnTheWire() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(SECRET, null), r, dev.weft.net.TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            byte[] rawHello = RawPeer.hello(RAW, true, 21, 1);
            raw.writeFrame(0, 0, 0, rawHello);
            byte[] nodeHello = raw.readHello();
            Frame nodeProof = raw.readFrame();
            assertEquals(1, nodeProof.type(), "PROOF");
            assertArrayEquals(hmac(SECRET, nodeHello, rawHello), nodeProof.payload());
            raw.writeFrame(1, 0, 0, hmac(SECRET, rawHello, nodeHello));
            Frame accept = raw.readFrame();
            assertEquals(2, accept.type(), "ACCEPT");
            byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
            for (byte[] sent : new byte[][] {nodeHello, nodeProof.payload()}) {
                assertEquals(-1, indexOf(sent, secret), "the secret is on the wire");
            }
            raw.writeFrame(16, 0, 3, new byte[0]);
            assertEquals(3, r.next().frame().number());
        }
    }

    @Test
    @Timeout(20)
    void aWrongOrReflectedProofClosesTheConnection() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(config(SECRET, null), r, dev.weft.net.TestCarriers.loops())) {
            for (boolean reflect : new boolean[] {false, true}) {
                try (RawPeer raw = RawPeer.connect(node.address())) {
                    byte[] rawHello = RawPeer.hello(RAW, true, 22, 1);
                    raw.writeFrame(0, 0, 0, rawHello);
                    byte[] nodeHello = raw.readHello();
                    Frame nodeProof = raw.readFrame();
                    raw.writeRaw(RawPeer.encode(1, 0, 0, reflect ? nodeProof.payload() : hmac("guess", rawHello, nodeHello)),
                            RawPeer.encode(16, 0, 0, new byte[0]));
                    assertTrue(raw.awaitClosed());
                }
            }
            assertEquals(0, r.pendingFrames());
            assertNull(node.links().find(RAW));
        }
    }

    /** The proof as specified: HMAC-SHA256 keyed by the secret over the prover's hello, then the verifier's, each length-prefixed. */
    private static byte[] hmac(String secret, byte[] prover, byte[] verifier) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.write(ByteBuffer.allocate(4).putInt(prover.length).array());
        input.write(prover);
        input.write(ByteBuffer.allocate(4).putInt(verifier.length).array());
        input.write(verifier);
        return mac.doFinal(input.toByteArray());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
