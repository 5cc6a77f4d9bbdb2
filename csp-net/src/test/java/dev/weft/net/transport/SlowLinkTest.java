package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.net.NodeAddress;
import dev.weft.net.TestCarriers;
import java.io.DataInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A frame that takes several heartbeat timeouts to cross a slow link, either way, keeps the link: heartbeats wait
 * behind it, but its bytes show the peer alive. A peer that stops taking bytes is still lost after the timeout.
 */
class SlowLinkTest {
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40006);
    /** Lost after 300 ms of silence; the frames below take over a second. */
    private static final TransportConfig QUICK = new TransportConfig(Nodes.HOST, 0, null, null, Duration.ofMillis(100),
            Duration.ofMillis(300), 16 << 20);
    /**
     * Lost after 3 s: a node sees its bytes leave only when the kernel wakes it to write more, once a third or so of
     * the socket's send buffer (up to 4 MiB on Linux) has drained; at the slow reader's pace below that takes half a
     * second, and on a loaded machine (CI) more than one second was seen.
     */
    private static final TransportConfig SENDING = new TransportConfig(Nodes.HOST, 0, null, null, Duration.ofMillis(500),
            Duration.ofSeconds(3), 16 << 20);
    private static final byte[] PING = RawPeer.encode(4, 0, 0, new byte[0]);

    @Test
    @Timeout(30)
    void aFrameThatArrivesSlowerThanTheTimeoutKeepsTheLink() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(QUICK, r, TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            raw.handshake(RAW, 1, 1);
            byte[] payload = new byte[1 << 20];
            Arrays.fill(payload, (byte) 7);
            byte[] wire = RawPeer.encode(16, 3, 9, payload);
            long start = System.nanoTime();
            for (int at = 0; at < wire.length; at += 16 << 10) { // 16 KiB every 20 ms: 1.3 s for the frame
                raw.writeRaw(Arrays.copyOfRange(wire, at, Math.min(wire.length, at + (16 << 10))));
                Thread.sleep(20); // the slow link itself
            }
            Recorder.Received got = r.next();
            assertTrue(System.nanoTime() - start > 3 * QUICK.heartbeatTimeout().toNanos(), "the frame came too fast to tell");
            assertEquals(9, got.frame().number());
            assertEquals(payload.length, got.frame().payload().length);
            assertEquals(0, r.pendingLosses(), "a link whose frame is still arriving was lost");
            assertFalse(got.link().isLost());
        }
    }

    @Test
    @Timeout(30)
    void aPeerThatReadsSlowerThanWeSendKeepsTheLink() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(SENDING, r, TestCarriers.loops());
             RawPeer raw = RawPeer.connect(node.address(), 64 << 10)) {
            raw.handshake(RAW, 1, 1);
            raw.writeFrame(16, 0, 1, new byte[0]);
            Link link = r.next().link();
            // More than the kernel's buffers hold: the node stops reading from the peer (backpressure), so the
            // peer's pings wait unread while the frame crosses.
            link.send(new Frame((byte) 16, 5, 6, new byte[12 << 20]));
            long start = System.nanoTime();
            CompletableFuture<Integer> frame = Nodes.inThread(() -> {
                try {
                    return slowly(raw);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            while (!frame.isDone()) { // the reader drains at the socket's pace; we ping, as a live peer does
                try {
                    raw.writeRaw(PING);
                } catch (IOException e) {
                    fail("lost after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + r.nextLoss().why());
                }
                Thread.sleep(50);
            }
            if (frame.isCompletedExceptionally()) {
                fail("lost after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + r.nextLoss().why());
            }
            assertEquals(17 + (12 << 20), frame.join());
            assertTrue(System.nanoTime() - start > SENDING.heartbeatTimeout().toNanos(), "the frame crossed too fast to tell");
            assertEquals(0, r.pendingLosses(), "a link whose peer was still reading was lost");
            assertFalse(link.isLost());
        }
    }

    /** Reads frames at 16 KiB per 5 ms (a slow link: 12 MiB take 4 s) until one that is not a heartbeat; its length. */
    private static int slowly(RawPeer raw) throws IOException {
        DataInputStream in = new DataInputStream(new FilterInputStream(raw.socket.getInputStream()) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    Thread.sleep(5); // the slow link itself
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                return super.read(b, off, Math.min(len, 16 << 10));
            }
        });
        for (;;) {
            int length = in.readInt();
            byte[] frame = new byte[length];
            in.readFully(frame);
            if (frame[0] != 4) {
                return length;
            }
        }
    }

    @Test
    @Timeout(30)
    void aPeerThatStopsReadingIsLostAfterTheTimeout() throws Exception {
        Recorder r = new Recorder();
        try (Transport node = Transport.start(QUICK, r, TestCarriers.loops());
             RawPeer raw = RawPeer.connect(node.address(), 64 << 10)) {
            raw.handshake(RAW, 1, 1);
            raw.writeFrame(16, 0, 1, new byte[0]);
            Link link = r.next().link();
            link.send(new Frame((byte) 16, 5, 6, new byte[12 << 20]));
            long start = System.nanoTime();
            CompletableFuture<Recorder.Lost> lost = Nodes.inThread(() -> {
                try {
                    return r.nextLoss();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            while (!lost.isDone()) { // pings, never read by a node that waits for us to read
                try {
                    raw.writeRaw(PING);
                } catch (IOException e) {
                    break; // the node gave up on us and reset the connection: the loss is on its way
                }
                Thread.sleep(50);
            }
            String why = lost.get(10, TimeUnit.SECONDS).why();
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals("peer " + RAW + " has not read what this node sent for 0.3s", why);
            assertTrue(ms < 5_000, "lost after " + ms + " ms, timeout 300 ms");
        }
    }
}
