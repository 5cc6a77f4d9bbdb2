package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The channel layer refuses a link: it is lost once, both sides hear why, and nothing more flows on it. */
class LinkLossTest {
    private static final byte BAD = 99;
    private static final byte THROWS = 98;
    private final Recorder ra = new Recorder();
    private final Recorder rb = new Recorder().onReceived((link, frame) -> {
        if (frame.type() == BAD) {
            link.refuse("frame type 99 is unknown to the channel layer");
        } else if (frame.type() == THROWS) {
            throw new IllegalStateException("boom");
        }
    });
    private Transport a;
    private Transport b;

    @BeforeEach
    void start() {
        a = Transport.start(config(), ra, dev.weft.net.TestCarriers.loops());
        b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops());
    }

    @AfterEach
    void stop() {
        a.close();
        b.close();
    }

    @Test
    @Timeout(20)
    void aRefusedLinkIsLostOnBothSidesAndCarriesNothingMore() throws Exception {
        Link ab = a.link(b.address());
        for (int i = 0; i < 10; i++) {
            ab.send(frame(i));
        }
        ab.send(new Frame(BAD, 0, 0));
        for (int i = 10; i < 20; i++) {
            ab.send(frame(i));
        }
        List<Recorder.Received> got = rb.next(11);
        Link ba = got.get(0).link();
        assertEquals(BAD, got.get(10).frame().type());
        Recorder.Lost atB = rb.nextLoss();
        assertSame(ba, atB.link());
        assertEquals("frame type 99 is unknown to the channel layer", atB.why());
        Recorder.Lost atA = ra.nextLoss();
        assertSame(ab, atA.link());
        assertEquals("peer " + b.address() + " closed the link: frame type 99 is unknown to the channel layer", atA.why());
        assertTrue(ab.isLost() && ba.isLost());
        ab.send(frame(100));
        ba.send(frame(101));
        ba.refuse("again");

        Link again = a.link(b.address());
        assertNotSame(ab, again, "a lost link is replaced");
        again.send(frame(102));
        Recorder.Received fresh = rb.next();
        assertEquals(102, fresh.frame().number(), "nothing sent on the lost link arrives");
        assertNotSame(ba, fresh.link());
        assertEquals(0, ra.pendingFrames() + ra.pendingLosses() + rb.pendingLosses());
        ra.assertContract();
        rb.assertContract();
    }

    @Test
    @Timeout(20)
    void refusingFromManyThreadsLosesTheLinkOnce() throws Exception {
        Link ab = a.link(b.address());
        ab.send(frame(0));
        Link ba = rb.next().link();
        CyclicBarrier together = new CyclicBarrier(8);
        List<CompletableFuture<Object>> refusers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String why = "refusal " + i;
            refusers.add(Nodes.inThread(() -> {
                try {
                    together.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                ba.refuse(why);
                ab.refuse(why);
                return null;
            }));
        }
        refusers.forEach(CompletableFuture::join);
        // Each side loses its link by its own refusal, or by the peer's goodbye if that came first.
        String atB = rb.nextLoss().why();
        String atA = ra.nextLoss().why();
        assertTrue(atB.startsWith("refusal ") || atB.startsWith("peer " + a.address() + " closed the link: refusal "), atB);
        assertTrue(atA.startsWith("refusal ") || atA.startsWith("peer " + b.address() + " closed the link: refusal "), atA);
        // One more round trip on a new link: any second loss of the old ones would have come before it.
        a.link(b.address()).send(frame(1));
        rb.next().link().send(frame(2));
        assertEquals(2, ra.next().frame().number());
        assertEquals(1, ra.lostCount(ab));
        assertEquals(1, rb.lostCount(ba));
        assertEquals(0, ra.pendingLosses() + rb.pendingLosses());
        ra.assertContract();
        rb.assertContract();
    }

    @Test
    @Timeout(20)
    void aListenerThatThrowsRefusesTheLink() throws Exception {
        Link ab = a.link(b.address());
        ab.send(new Frame(THROWS, 0, 0));
        rb.next();
        Recorder.Lost lost = rb.nextLoss();
        assertTrue(lost.why().startsWith("the channel layer failed on a frame: java.lang.IllegalStateException: boom"), lost.why());
        assertSame(ab, ra.nextLoss().link());
    }
}
