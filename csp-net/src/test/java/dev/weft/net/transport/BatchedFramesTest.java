package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A drain encodes its frames one after the other into one buffer ({@link PeerLink#BATCH_BYTES} at a time) and
 * writes it once: every frame still arrives whole and in order, also one longer than the buffer, and a link lost
 * in the middle of a drain delivers an unbroken prefix of what was sent, never a torn frame.
 */
class BatchedFramesTest {
    private final Recorder ra = new Recorder();
    private final Recorder rb = new Recorder();
    private Transport a;
    private Transport b;
    private PeerLink link;

    @BeforeEach
    void link() throws Exception {
        a = Transport.start(config(), ra, dev.weft.net.TestCarriers.loops());
        b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops());
        link = (PeerLink) a.link(b.address());
        link.send(frame(-1));
        rb.next();
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    /** Frame {@code n}: its payload's length and bytes follow from {@code n} (some longer than a batch buffer). */
    private static Frame numbered(int n, int longEvery) {
        int length = n % longEvery == longEvery - 1 ? 3 * PeerLink.BATCH_BYTES + n : n % 300;
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (n * 31 + i);
        }
        return new Frame((byte) 16, n, -n, payload);
    }

    private static void assertIntact(int n, int longEvery, Frame got) {
        Frame sent = numbered(n, longEvery);
        assertEquals(sent.channel(), got.channel(), "frames in order");
        assertEquals(sent.number(), got.number());
        assertArrayEquals(sent.payload(), got.payload(), "frame " + n + " intact");
    }

    @RepeatedTest(5)
    @Timeout(60)
    void manyFramesOfOneDrainArriveIntactAndInOrder() throws Exception {
        int frames = 2_000;
        long flushes = link.flushes();
        CountDownLatch release = Nodes.holdLoop(a);
        for (int n = 0; n < frames; n++) {
            link.send(numbered(n, 97));
        }
        release.countDown();
        for (int n = 0; n < frames; n++) {
            assertIntact(n, 97, rb.next().frame());
        }
        assertEquals(1, link.flushes() - flushes, "one drain wrote them all");
    }

    @Test
    @Timeout(60)
    void framesOfSeparateDrainsReuseTheBufferAndArriveIntact() throws Exception {
        for (int n = 0; n < 500; n++) {
            link.send(numbered(n, 50));
            assertIntact(n, 50, rb.next().frame()); // one frame per drain: the kept buffer serves the next
        }
    }

    @Test
    @Timeout(60)
    void aLinkLostInTheMiddleOfADrainDeliversAnUnbrokenPrefix() throws Exception {
        int frames = 20_000;
        for (int n = 0; n < frames; n++) {
            link.send(numbered(n, 1_000));
        }
        assertIntact(0, 1_000, rb.next().frame());
        link.refuse("lost on purpose, mid-drain");
        // The peer loses the link too: by the goodbye, or by a reset when this node, not reading while the peer
        // cannot keep up (backpressure), closes with the peer's pings unread.
        rb.nextLoss();
        int n = 1;
        for (Recorder.Received r; (r = rb.poll()) != null; n++) { // all delivered before the loss was heard
            assertIntact(n, 1_000, r.frame());
        }
    }
}
