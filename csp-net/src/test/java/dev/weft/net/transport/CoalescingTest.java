package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sends only queue; one drain on the event loop writes all that is queued and flushes once. */
class CoalescingTest {
    private static final int FRAMES = 10_000;
    private final Recorder rb = new Recorder();
    private Transport a;
    private Transport b;
    private PeerLink link;
    private long flushes;
    private long written;

    @BeforeEach
    void link() throws Exception {
        a = Transport.start(config(), new Recorder(), dev.weft.net.TestCarriers.loops());
        b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops());
        link = (PeerLink) a.link(b.address());
        link.send(frame(-1));
        rb.next();
        flushes = link.flushes();
        written = link.framesWritten();
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    @Test
    @Timeout(30)
    void framesQueuedWhileTheLoopIsBusyGoOutInOneFlush() throws Exception {
        CountDownLatch release = Nodes.holdLoop(a);
        sendAll();
        release.countDown();
        receiveAll();
        assertEquals(1, link.flushes() - flushes, "one drain, one flush for everything queued");
    }

    @Test
    @Timeout(30)
    void framesSentFromOneThreadShareFlushes() throws Exception {
        sendAll();
        receiveAll();
        long drains = link.flushes() - flushes;
        assertTrue(drains <= FRAMES / 2, drains + " flushes for " + FRAMES + " frames");
    }

    private void sendAll() {
        for (int i = 0; i < FRAMES; i++) {
            link.send(frame(i));
        }
    }

    private void receiveAll() throws InterruptedException {
        for (int i = 0; i < FRAMES; i++) {
            assertEquals(i, rb.next().frame().number());
        }
        assertEquals(FRAMES, link.framesWritten() - written);
    }
}
