package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two nodes over loopback: frames both ways, one link object per peer, the self link, closing, dialling failures. */
class TransportTest {
    @Test
    @Timeout(20)
    void framesFlowBothWaysInOrderOnOneLinkPerPeer() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops())) {
            Link ab = a.link(b.address());
            assertSame(ab, a.link(b.address()), "one link per peer, also while it is being dialled");
            assertEquals(b.address(), ab.peer());
            for (int i = 0; i < 100; i++) {
                ab.send(new Frame((byte) 16, 3, i, new byte[] {(byte) i, 42}));
            }
            List<Recorder.Received> got = rb.next(100);
            Link ba = got.get(0).link();
            assertEquals(a.address(), ba.peer(), "the accepting node knows the dialler by its listening address");
            assertSame(ba, b.link(a.address()), "the accepting node's link is the one link to the dialler");
            for (int i = 0; i < 100; i++) {
                Frame f = got.get(i).frame();
                assertSame(ba, got.get(i).link());
                assertEquals(16, f.type());
                assertEquals(3, f.channel());
                assertEquals(i, f.number());
                assertArrayEquals(new byte[] {(byte) i, 42}, f.payload());
            }
            ba.send(frame(7));
            Recorder.Received back = ra.next();
            assertSame(ab, back.link());
            assertEquals(7, back.frame().number());
            assertFalse(ab.isLost());
            ra.assertContract();
            rb.assertContract();
        }
    }

    @Test
    @Timeout(20)
    void theSameOnNio() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(), ra, false); Transport b = Transport.start(config(), rb, false)) {
            a.link(b.address()).send(frame(1));
            Recorder.Received r = rb.next();
            r.link().send(frame(2));
            assertEquals(2, ra.next().frame().number());
            rb.assertContract();
        }
    }

    @Test
    @Timeout(20)
    void theLinkToItselfDeliversOnTheEventLoopWithoutASocket() throws Exception {
        Recorder r = new Recorder();
        try (Transport a = Transport.start(config(), r, dev.weft.net.TestCarriers.loops())) {
            Link self = a.link(a.address());
            assertSame(self, a.link(a.address()));
            assertEquals(a.address(), self.peer());
            for (int i = 0; i < 1000; i++) {
                self.send(frame(i));
            }
            for (int i = 0; i < 1000; i++) {
                Recorder.Received got = r.next();
                assertSame(self, got.link());
                assertEquals(i, got.frame().number());
            }
            assertTrue(a.links().find(a.address()) == null, "no network link to itself");
            self.refuse("enough");
            Recorder.Lost lost = r.nextLoss();
            assertSame(self, lost.link());
            assertEquals("enough", lost.why());
            self.send(frame(1));
            Link again = a.link(a.address());
            assertNotSame(self, again, "a lost link is replaced by a new one");
            again.send(frame(2));
            assertEquals(2, r.next().frame().number());
            r.assertContract();
        }
    }

    @Test
    @Timeout(20)
    void closingSaysGoodbyeToPeersAndLosesEveryLinkOnce() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        Transport a = Transport.start(config(), ra, dev.weft.net.TestCarriers.loops());
        try (Transport b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops())) {
            Link ab = a.link(b.address());
            Link self = a.link(a.address());
            ab.send(frame(1));
            Link ba = rb.next().link();
            assertTrue(a.links().loop.submit(() -> Thread.currentThread().isDaemon()).get(), "the event loop does not keep the JVM up");
            a.close();
            a.close();
            // a loop of its own ends with it; a carrier's lives on with its carrier, serving the scheduler's other nodes
            assertTrue(dev.weft.net.TestCarriers.loops() != null || a.links().loop.isTerminated(),
                    "close waits for the event loop to end");
            Recorder.Lost l1 = ra.nextLoss();
            Recorder.Lost l2 = ra.nextLoss();
            assertEquals(List.of(Transport.CLOSED, Transport.CLOSED), List.of(l1.why(), l2.why()));
            assertTrue(List.of(l1.link(), l2.link()).containsAll(List.of(ab, self)));
            Recorder.Lost atB = rb.nextLoss();
            assertSame(ba, atB.link());
            assertEquals("peer " + a.address() + " closed", atB.why());
            assertTrue(ab.isLost() && ba.isLost());
            ab.send(frame(2)); // dropped silently
            assertThrows(IllegalStateException.class, () -> a.link(b.address()));
            assertEquals(0, ra.pendingLosses());
            ra.assertContract();
            rb.assertContract();
        } finally {
            a.close();
        }
    }

    @Test
    @Timeout(20)
    void aPeerNobodyListensOnIsLostWithTheReason() throws Exception {
        Recorder r = new Recorder();
        try (Transport a = Transport.start(config(), r, dev.weft.net.TestCarriers.loops())) {
            NodeAddress nobody = Nodes.unused();
            Link link = a.link(nobody);
            link.send(frame(1));
            Recorder.Lost lost = r.nextLoss();
            assertSame(link, lost.link());
            assertTrue(lost.why().startsWith("cannot connect to " + nobody + ": "), lost.why());
            assertTrue(lost.why().toLowerCase().contains("refused"), lost.why());
            assertTrue(link.isLost());
            r.assertContract();
        }
    }

    @Test
    @Timeout(20)
    void aPeerThatNeverAnswersTheHandshakeIsLostAfterTheTimeout() throws Exception {
        Recorder r = new Recorder();
        TransportConfig quick = Nodes.withHeartbeat(Duration.ofMillis(100), Duration.ofMillis(300));
        try (ServerSocket mute = new ServerSocket(0, 10, InetAddress.getByName(Nodes.HOST));
             Transport a = Transport.start(quick, r, dev.weft.net.TestCarriers.loops())) {
            long start = System.nanoTime();
            Link link = a.link(new NodeAddress(Nodes.HOST, mute.getLocalPort()));
            try (Socket accepted = mute.accept()) {
                assertTrue(accepted.isConnected());
                Recorder.Lost lost = r.nextLoss();
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertSame(link, lost.link());
                assertTrue(lost.why().contains("within 0.3s"), lost.why());
                assertTrue(ms >= 250, "lost after " + ms + " ms");
            }
        }
    }

    @Test
    @Timeout(20)
    void dialingANodeByAnotherNameForItIsRefused() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(), rb, dev.weft.net.TestCarriers.loops())) {
            Link link = a.link(new NodeAddress("localhost", b.address().port()));
            Recorder.Lost lost = ra.nextLoss();
            assertSame(link, lost.link());
            assertTrue(lost.why().contains("answered as " + b.address()), lost.why());
            assertEquals(0, rb.pendingFrames());
        }
    }

    @Test
    @Timeout(20)
    void aBusyPortSaysWhichAddressCouldNotBeBound() throws Exception {
        try (Transport a = Transport.start(config(), new Recorder(), dev.weft.net.TestCarriers.loops())) {
            TransportConfig same = new TransportConfig(Nodes.HOST, a.address().port(), null, null,
                    Duration.ofMillis(100), Duration.ofSeconds(1), 1 << 20);
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Transport.start(same, new Recorder(), dev.weft.net.TestCarriers.loops()));
            assertTrue(e.getMessage().contains(Nodes.HOST + ":" + a.address().port()), e.getMessage());
        }
    }

    @Test
    @Timeout(20)
    void misuseIsRefusedWithAReason() throws Exception {
        try (Transport a = Transport.start(config(), new Recorder(), dev.weft.net.TestCarriers.loops())) {
            Link self = a.link(a.address());
            IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> self.send(new Frame((byte) 5, 0, 0)));
            assertTrue(type.getMessage().contains("belongs to the transport"), type.getMessage());
            IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                    () -> self.send(new Frame((byte) 16, 0, 0, new byte[1 << 20])));
            assertTrue(size.getMessage().contains("maxFrameBytes"), size.getMessage());
            IllegalArgumentException port = assertThrows(IllegalArgumentException.class, () -> a.link(new NodeAddress(Nodes.HOST, 0)));
            assertTrue(port.getMessage().contains("port 0"), port.getMessage());
        }
    }
}
