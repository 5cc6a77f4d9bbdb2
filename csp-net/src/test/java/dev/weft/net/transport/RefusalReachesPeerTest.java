package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import dev.weft.net.TestCarriers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that refuses or closes a link while the peer is still streaming frames at it: the peer's frames wait
 * unread in the node's socket, and a socket closed with unread input sends a reset that can destroy the goodbye
 * just written. The peer must hear the goodbye's reason every time, and the node must still close the connection
 * of a peer that never stops sending. (A node peer loses the reason when a write of its own fails on the reset
 * first; a raw socket on Linux still reads the goodbye, then fails on the reset instead of reading the end of the
 * stream.) Every round runs, and the failure names how many missed the reason.
 */
class RefusalReachesPeerTest {
    private static final int ROUNDS = 100;
    /** Frames a node takes on a link before it refuses it. */
    private static final int REFUSE_AT = 2_000;
    /** Frames a streaming peer keeps beyond those delivered: megabytes on their way when the refusal comes. */
    private static final int WINDOW = 4_000;
    private static final byte[] PAYLOAD = new byte[1_000];
    private static final NodeAddress RAW = new NodeAddress(Nodes.HOST, 40007);
    private static final int MAX = 1024;
    /** Writes of 64 frames a raw peer makes after its bad frame before it reads. */
    private static final int AFTER_CHUNKS = 16;

    @TempDir
    static Path dir;

    /** Counts the frames delivered on each link, refuses a link at its {@link #REFUSE_AT}th, and records losses. */
    private static final class Refuser implements LinkListener {
        final AtomicLong delivered = new AtomicLong();
        final AtomicReference<String> late = new AtomicReference<>();
        private final Map<Link, AtomicLong> perLink = new ConcurrentHashMap<>();
        private final boolean refuse;

        Refuser(boolean refuse) {
            this.refuse = refuse;
        }

        @Override
        public void received(Link link, byte type, long channel, long number, byte[] payload) {
            Frame frame = new Frame(type, channel, number, payload);
            delivered.incrementAndGet();
            long n = perLink.computeIfAbsent(link, k -> new AtomicLong()).incrementAndGet();
            if (refuse && n == REFUSE_AT) {
                link.refuse("enough after " + REFUSE_AT + " frames");
            }
            if (refuse && n > REFUSE_AT) {
                late.set("frame " + n + " was delivered after its link was refused");
            }
        }

        @Override
        public void lost(Link link, String why) {
        }
    }

    /** Hears why each link was lost. */
    private static final class Losses implements LinkListener {
        final Map<Link, CompletableFuture<String>> whys = new ConcurrentHashMap<>();

        @Override
        public void received(Link link, byte type, long channel, long number, byte[] payload) {
            Frame frame = new Frame(type, channel, number, payload);
        }

        @Override
        public void lost(Link link, String why) {
            of(link).complete(why);
        }

        CompletableFuture<String> of(Link link) {
            return whys.computeIfAbsent(link, k -> new CompletableFuture<>());
        }
    }

    @Test
    @Timeout(120)
    void aPeerStreamingFramesHearsWhyItsLinkWasRefused() throws Exception {
        refusalsReachTheStreamingPeer(null, ROUNDS);
    }

    @Test
    @Timeout(120)
    void overTlsToo() throws Exception {
        refusalsReachTheStreamingPeer(TestCertificates.selfSigned(dir, "refuse"), ROUNDS * 2 / 5);
    }

    private void refusalsReachTheStreamingPeer(SSLContext tls, int rounds) throws Exception {
        Refuser refuser = new Refuser(true);
        Losses losses = new Losses();
        try (Transport a = Transport.start(Nodes.config(null, tls), refuser, TestCarriers.loops());
             Transport b = Transport.start(Nodes.config(null, tls), losses, TestCarriers.loops())) {
            Misses misses = new Misses(rounds);
            for (int round = 0; round < rounds; round++) {
                Link link = b.link(a.address());
                long start = refuser.delivered.get();
                stream(link, () -> refuser.delivered.get() - start);
                misses.check("peer " + a.address() + " closed the link: enough after " + REFUSE_AT + " frames",
                        losses.of(link).get(30, TimeUnit.SECONDS));
            }
            misses.assertNone();
        }
        assertEquals(null, refuser.late.get());
    }

    @Test
    @Timeout(120)
    void aPeerStreamingFramesHearsThatTheNodeClosed() throws Exception {
        Losses losses = new Losses();
        try (Transport b = Transport.start(Nodes.config(), losses, TestCarriers.loops())) {
            Misses misses = new Misses(ROUNDS / 2);
            for (int round = 0; round < ROUNDS / 2; round++) {
                Refuser taker = new Refuser(false);
                Transport a = Transport.start(Nodes.config(), taker, TestCarriers.loops());
                Link link = b.link(a.address());
                CompletableFuture<Void> closed = Nodes.inThread(() -> {
                    while (taker.delivered.get() < REFUSE_AT) {
                        LockSupport.parkNanos(100_000);
                    }
                    a.close();
                    return null;
                });
                stream(link, taker.delivered::get);
                misses.check("peer " + a.address() + " closed", losses.of(link).get(30, TimeUnit.SECONDS));
                closed.get(30, TimeUnit.SECONDS);
            }
            misses.assertNone();
        }
    }

    /** What the peer heard instead of the reason, over the rounds: all of them are reported, not just the first. */
    private static final class Misses {
        private final int rounds;
        private int missed;
        private String first;

        Misses(int rounds) {
            this.rounds = rounds;
        }

        void check(String expected, String heard) {
            if (!expected.equals(heard)) {
                missed++;
                if (first == null) {
                    first = heard;
                }
            }
        }

        void assertNone() {
            assertEquals(0, missed, missed + " of " + rounds + " rounds did not hear the reason; the first heard: " + first);
        }
    }

    /** Sends frames on {@code link} until it is lost, keeping {@link #WINDOW} frames beyond those delivered. */
    private static void stream(Link link, java.util.function.LongSupplier delivered) {
        long sent = 0;
        while (!link.isLost()) {
            if (sent - delivered.getAsLong() < WINDOW) {
                link.send(new Frame((byte) 16, 7, sent++, PAYLOAD));
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
    }

    @Test
    @Timeout(120)
    void aRawPeerStreamingFramesHearsThatOneWasTooLong() throws Exception {
        Refuser taker = new Refuser(false);
        try (Transport a = Transport.start(new TransportConfig(Nodes.HOST, 0, null, null, Duration.ofMillis(100),
                Duration.ofSeconds(10), MAX), taker, TestCarriers.loops())) {
            Misses misses = new Misses(ROUNDS);
            for (int round = 0; round < ROUNDS; round++) {
                try (RawPeer raw = RawPeer.connect(a.address())) {
                    raw.handshake(RAW, 1000 + round, 1);
                    AtomicBoolean stop = new AtomicBoolean();
                    CountDownLatch after = new CountDownLatch(AFTER_CHUNKS);
                    CompletableFuture<IOException> writer = Nodes.inThread(() -> streamWithATooLongFrame(raw, after, stop));
                    // As a peer busy sending: it reads what the node said only once it has sent more after the bad frame.
                    writer.exceptionally(e -> null).thenRun(() -> {
                        while (after.getCount() > 0) {
                            after.countDown();
                        }
                    });
                    after.await();
                    String heard = "";
                    try {
                        Frame goodbye = raw.readNonPing();
                        heard = Control.name(goodbye.type()) + ": " + new String(goodbye.payload(), StandardCharsets.UTF_8);
                        heard += raw.socket.getInputStream().read() < 0 ? ", then the end of the stream" : ", then more";
                    } catch (IOException e) {
                        heard += (heard.isEmpty() ? "" : ", then ") + e;
                    }
                    stop.set(true);
                    misses.check("GOODBYE: peer " + RAW + " sent a frame longer than maxFrameBytes " + MAX
                            + ", then the end of the stream", heard);
                    writer.get(30, TimeUnit.SECONDS);
                }
            }
            misses.assertNone();
        }
    }

    @Test
    @Timeout(60)
    void aPeerThatNeverStopsSendingIsClosedAllTheSame() throws Exception {
        Refuser taker = new Refuser(false);
        try (Transport a = Transport.start(new TransportConfig(Nodes.HOST, 0, null, null, Duration.ofMillis(100),
                Duration.ofSeconds(10), MAX), taker, TestCarriers.loops());
             RawPeer raw = RawPeer.connect(a.address())) {
            raw.handshake(RAW, 1, 1);
            CompletableFuture<IOException> writer = Nodes.inThread(() ->
                    streamWithATooLongFrame(raw, new CountDownLatch(0), new AtomicBoolean()));
            assertEquals(Control.GOODBYE, raw.readNonPing().type());
            IOException ended = writer.get(50, TimeUnit.SECONDS);
            assertTrue(ended != null, "the node closed the connection: the endless writer failed");
        }
    }

    /**
     * Writes frames, one of them too long for the node, then more frames, counting down {@code after} for each 64
     * of them, until {@code stop} or until the node closes the connection; returns the failure that ended the
     * writing, or null if stopped.
     */
    private static IOException streamWithATooLongFrame(RawPeer raw, CountDownLatch after, AtomicBoolean stop) {
        byte[] frame = RawPeer.encode(16, 0, 1, new byte[MAX - Frame.HEADER_BYTES]);
        ByteBuffer chunk = ByteBuffer.allocate(64 * frame.length);
        while (chunk.hasRemaining()) {
            chunk.put(frame);
        }
        byte[] tooLong = ByteBuffer.allocate(Frame.HEADER_BYTES + 4).putInt(MAX + 1).array();
        try {
            OutputStream out = raw.socket.getOutputStream();
            for (int i = 0; i < 32; i++) { // 2 MiB
                out.write(chunk.array());
            }
            out.write(tooLong);
            while (!stop.get()) {
                out.write(chunk.array());
                after.countDown();
            }
            return null;
        } catch (IOException e) {
            return e;
        }
    }
}
