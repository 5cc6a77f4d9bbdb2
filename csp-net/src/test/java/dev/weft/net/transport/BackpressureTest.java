package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that sends requests but reads none of the responses cannot make a node buffer without bound: the node
 * stops reading from it once the responses pile up past the high water mark, and reads again when they drain.
 */
class BackpressureTest {
    private static final int REQUESTS = 30_000;
    private static final int RESPONSE_BYTES = 1024;
    private static final long BOUND = 4L << 20; // the unbounded case would buffer ~30 MiB

    @Test
    @Timeout(60)
    void aPeerThatDoesNotReadStopsBeingRead() throws Exception {
        AtomicLong mostPending = new AtomicLong();
        AtomicInteger requests = new AtomicInteger();
        AtomicReference<PeerLink> served = new AtomicReference<>();
        Recorder r = new Recorder().onReceived((link, frame) -> {
            PeerLink peer = (PeerLink) link;
            served.set(peer);
            requests.incrementAndGet();
            link.send(new Frame((byte) 16, frame.channel(), frame.number(), new byte[RESPONSE_BYTES]));
            // After the drain this send scheduled (or joined): what the drain left buffered.
            peer.loop.execute(() -> mostPending.accumulateAndGet(peer.pendingWriteBytes(), Math::max));
        });
        TransportConfig config = Nodes.config(); // heartbeats lose nothing here: 10 s timeout
        try (Transport node = Transport.start(config, r, dev.weft.net.TestCarriers.loops()); RawPeer raw = RawPeer.connect(node.address())) {
            raw.handshake(new NodeAddress(Nodes.HOST, 40004), 1, 1);
            CompletableFuture<Void> writer = Nodes.inThread(() -> {
                try {
                    for (int i = 0; i < REQUESTS; i++) {
                        raw.writeFrame(16, 1, i, new byte[RESPONSE_BYTES]);
                    }
                    return null;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            Nodes.await("the node stops reading from the peer, or has read every request",
                    () -> requests.get() == REQUESTS || served.get() != null && !served.get().connection().channel().config().isAutoRead());
            long pausedAt = requests.get();
            assertTrue(pausedAt < REQUESTS, "the node read all " + REQUESTS + " requests of a peer that reads nothing");
            assertTrue(mostPending.get() <= BOUND, mostPending.get() + " bytes buffered for a peer that reads nothing");
            long pendingNow = served.get().pendingWriteBytes();
            assertTrue(pendingNow <= BOUND, pendingNow + " bytes buffered once paused");
            mostPending.accumulateAndGet(pendingNow, Math::max);

            AtomicInteger responses = new AtomicInteger();
            CompletableFuture<Void> reader = Nodes.inThread(() -> {
                try {
                    while (responses.get() < REQUESTS) {
                        if (raw.readFrame().type() == 16) {
                            responses.incrementAndGet();
                        }
                    }
                    return null;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.join();
            reader.join();
            assertEquals(REQUESTS, requests.get(), "reading resumed once the peer read");
            assertEquals(REQUESTS, responses.get());
            assertTrue(mostPending.get() <= BOUND, mostPending.get() + " bytes buffered at most");
            r.assertContract();
        }
    }
}
