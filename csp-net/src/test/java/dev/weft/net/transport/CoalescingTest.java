package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sends only queue; one drain on the event loop writes all that is queued and flushes once. */
class CoalescingTest {
    private static final int FRAMES = 10_000;

    @Test
    @Timeout(30)
    void framesQueuedWhileTheLoopIsBusyGoOutInOneFlush() throws Exception {
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(), new Recorder()); Transport b = Transport.start(config(), rb)) {
            PeerLink link = (PeerLink) a.link(b.address());
            link.send(frame(-1));
            rb.next();
            long flushes = link.flushes();
            long written = link.framesWritten();

            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            a.links().loop.execute(() -> {
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            busy.await();
            for (int i = 0; i < FRAMES; i++) {
                link.send(frame(i));
            }
            release.countDown();
            for (int i = 0; i < FRAMES; i++) {
                assertEquals(i, rb.next().frame().number());
            }
            assertEquals(FRAMES, link.framesWritten() - written);
            assertEquals(1, link.flushes() - flushes, "one drain, one flush for everything queued");
        }
    }

    @Test
    @Timeout(30)
    void framesSentFromOneThreadShareFlushes() throws Exception {
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(), new Recorder()); Transport b = Transport.start(config(), rb)) {
            PeerLink link = (PeerLink) a.link(b.address());
            link.send(frame(-1));
            rb.next();
            long flushes = link.flushes();
            long written = link.framesWritten();
            for (int i = 0; i < FRAMES; i++) {
                link.send(frame(i));
            }
            for (int i = 0; i < FRAMES; i++) {
                assertEquals(i, rb.next().frame().number());
            }
            long drains = link.flushes() - flushes;
            assertEquals(FRAMES, link.framesWritten() - written);
            assertTrue(drains <= FRAMES / 2, drains + " flushes for " + FRAMES + " frames");
        }
    }
}
