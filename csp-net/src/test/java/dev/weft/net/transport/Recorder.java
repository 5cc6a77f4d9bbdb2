package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/** A listener that records what a node hears, checks it hears it on its event loop, and lets tests wait for it. */
final class Recorder implements LinkListener {
    record Received(Link link, Frame frame) {
    }

    record Lost(Link link, String why) {
    }

    private static final long WAIT_SECONDS = 20;
    private final BlockingQueue<Received> frames = new LinkedBlockingQueue<>();
    private final BlockingQueue<Lost> losses = new LinkedBlockingQueue<>();
    private final Map<Link, AtomicInteger> lostCounts = new ConcurrentHashMap<>();
    private final AtomicReference<String> offLoop = new AtomicReference<>();
    private final AtomicReference<String> afterLoss = new AtomicReference<>();
    private volatile BiConsumer<Link, Frame> onReceived = (l, f) -> { };

    /** Also runs {@code action} on each frame, on the event loop. */
    Recorder onReceived(BiConsumer<Link, Frame> action) {
        this.onReceived = action;
        return this;
    }

    @Override
    public void received(Link link, byte type, long channel, long number, byte[] payload) {
        Frame frame = new Frame(type, channel, number, payload);
        checkThread("received");
        if (lostCounts.containsKey(link)) {
            afterLoss.compareAndSet(null, "a frame of type " + frame.type() + " came in on " + link + " after it was lost");
        }
        frames.add(new Received(link, frame));
        onReceived.accept(link, frame);
    }

    @Override
    public void lost(Link link, String why) {
        checkThread("lost");
        lostCounts.computeIfAbsent(link, k -> new AtomicInteger()).incrementAndGet();
        losses.add(new Lost(link, why));
    }

    private void checkThread(String call) {
        String name = Thread.currentThread().getName();
        // a node's own loop thread, or a carrier driving its loop (TestCarriers)
        if (!name.startsWith("weft-net-") && !(Thread.currentThread() instanceof dev.weft.csp.runtime.Carrier)) {
            offLoop.compareAndSet(null, call + " was called on thread " + name);
        }
    }

    /** The next frame, waiting for it. */
    Received next() throws InterruptedException {
        Received r = frames.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(r, "no frame came in");
        return r;
    }

    /** The next frame if one came in, else null (no waiting). */
    Received poll() {
        return frames.poll();
    }

    /** The next {@code n} frames. */
    List<Received> next(int n) throws InterruptedException {
        List<Received> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(next());
        }
        return all;
    }

    /** The next loss, waiting for it. */
    Lost nextLoss() throws InterruptedException {
        Lost l = losses.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(l, "no link was lost");
        return l;
    }

    /** Frames that came in and were not taken yet. */
    int pendingFrames() {
        return frames.size();
    }

    /** Losses that were not taken yet. */
    int pendingLosses() {
        return losses.size();
    }

    /** How many times {@code link} was lost. */
    int lostCount(Link link) {
        AtomicInteger n = lostCounts.get(link);
        return n == null ? 0 : n.get();
    }

    /** Checks the contract held so far: every call on the event loop, nothing after a loss, a loss once. */
    void assertContract() {
        assertNull(offLoop.get());
        assertNull(afterLoss.get());
        lostCounts.forEach((link, n) -> assertEquals(1, n.get(), link + " lost more than once"));
    }
}
