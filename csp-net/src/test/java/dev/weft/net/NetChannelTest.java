package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Net channels between nodes on loopback: local semantics across the network. */
@Timeout(120) // at load 20 (builds and benchmarks beside it) the 2,000 round trips of one test took 32 s
class NetChannelTest {
    @Test
    void aSynchronousWriteReturnsOnlyOnceTheRemoteReadTookTheValue() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<String> in = b.net2one();
            NetChannelOutput<String> out = a.one2net(in.location());
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                out.write("hello");
                return null;
            });
            assertEquals(0, new Alternative(in).priSelect()); // the value has arrived...
            assertTrue(in.pending());
            writer.awaitBlocked();
            assertFalse(writer.isDone()); // ...and its writer still waits for the read
            assertEquals("hello", in.read());
            writer.join();
        }
    }

    @Test
    void aBufferedInputTakesCapacityValuesThenHoldsTheWriter() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Integer> in = b.net2one(3);
            NetChannelOutput<Integer> out = a.one2net(in.location());
            for (int i = 0; i < 3; i++) {
                out.write(i); // no reader yet: each returns once its value is in the buffer
            }
            Nodes.Party<Void> fourth = nodes.thread("fourth", () -> {
                out.write(3);
                return null;
            });
            fourth.awaitBlocked();
            assertFalse(fourth.isDone());
            assertEquals(0, in.read());
            fourth.join();
            for (int i = 1; i < 4; i++) {
                assertEquals(i, in.read());
            }
        }
    }

    /**
     * A writer on another node closes a buffered net channel: the reader drains every value written before, then
     * sees the end; a second writer, on a third node, learns that the channel is closed at its next write.
     */
    @Test
    void aCloseCrossesTheNetworkAfterTheValuesWrittenBefore() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node c = nodes.start();
            NetChannelInput<Integer> in = b.net2one(4);
            NetChannelOutput<Integer> out = a.one2net(in.location());
            NetChannelOutput<Integer> late = c.one2net(in.location());
            for (int i = 0; i < 3; i++) {
                out.write(i);
            }
            out.close();
            assertThrows(ChannelClosedException.class, () -> out.write(9));
            List<Integer> got = new ArrayList<>();
            in.forEach(v -> got.add(v));
            assertEquals(List.of(0, 1, 2), got);
            assertThrows(ChannelClosedException.class, in::read);
            ChannelClosedException refused = assertThrows(ChannelClosedException.class, () -> {
                late.write(100); // taken on credit, then refused by the closed input...
                late.write(101); // ...which fails the output: its next write throws
            });
            assertTrue(refused.getMessage().contains("closed"), refused.getMessage());
        }
    }

    /** A synchronous writer waiting when its channel closes is still read, as on a local channel. */
    @Test
    void aSynchronousWriteUnderWayWhenAnotherWriterClosesIsStillRead() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<String> in = b.net2one();
            NetSharedChannelOutput<String> out = a.any2net(in.location());
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                out.write("under way");
                return null;
            });
            assertEquals(0, new Alternative(in).priSelect()); // its value has arrived
            out.close();
            assertEquals("under way", in.read());
            writer.join();
            assertThrows(ChannelClosedException.class, in::read);
        }
    }

    @Test
    void manyValuesStreamInOrderOnABufferedChannel() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Long> in = b.net2one(64);
            NetChannelOutput<Long> out = a.one2net(in.location());
            int n = 20_000;
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                for (long i = 0; i < n; i++) {
                    out.write(i);
                }
                return null;
            });
            for (long i = 0; i < n; i++) {
                assertEquals(i, in.read());
            }
            writer.join();
        }
    }

    @Test
    void fibersOnTwoNodesPingPong() {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Integer> toB = b.net2one();
            NetChannelInput<Integer> toA = a.net2one();
            NetChannelOutput<Integer> aOut = a.one2net(toB.location());
            NetChannelOutput<Integer> bOut = b.one2net(toA.location());
            int rounds = 2_000;
            Weft.run(s, () -> Parallel.run(() -> {
                for (int i = 0; i < rounds; i++) {
                    aOut.write(i);
                    assertEquals(i + 1, toA.read());
                }
            }, () -> {
                for (int i = 0; i < rounds; i++) {
                    bOut.write(toB.read() + 1);
                }
            }));
        }
    }

    @Test
    void aNetInputIsAGuardBesideLocalChannels() {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.singleThreaded()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<String> net = b.net2one();
            NetChannelOutput<String> out = a.one2net(net.location());
            One2OneChannel<String> local = Channel.one2one();
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            Weft.run(s, () -> Parallel.run(
                    () -> out.write("from the network"),
                    () -> local.out().write("from here"),
                    () -> {
                        Alternative alt = new Alternative(net, local.in());
                        for (int i = 0; i < 2; i++) {
                            got.add(alt.select() == 0 ? net.read() : local.in().read());
                        }
                    }));
            assertEquals(2, got.size());
            assertTrue(got.contains("from the network") && got.contains("from here"), got.toString());
        }
    }

    @Test
    void poisonCrossesTheNetworkBothWays() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            // the reader poisons: a blocked remote writer throws
            NetChannelInput<String> in1 = b.net2one();
            NetChannelOutput<String> out1 = a.one2net(in1.location());
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                out1.write("never read");
                return null;
            });
            assertEquals(0, new Alternative(in1).priSelect());
            in1.poison();
            assertInstanceOf(PoisonException.class, writer.failure());
            assertThrows(PoisonException.class, () -> out1.write("later"));
            // the writer poisons: a blocked remote reader throws, and so does a later read
            NetChannelInput<String> in2 = b.net2one();
            NetChannelOutput<String> out2 = a.one2net(in2.location());
            Nodes.Party<String> reader = nodes.thread("reader", in2::read);
            reader.awaitBlocked();
            out2.poison();
            assertInstanceOf(PoisonException.class, reader.failure());
            assertThrows(PoisonException.class, in2::read);
        }
    }

    @Test
    void locationsTravelOverNetChannelsSoProcessesWireThemselves() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<NetChannelLocation> requests = b.net2one();
            Nodes.Party<Void> server = nodes.thread("server", () -> {
                NetChannelLocation replyTo = requests.read();
                b.<String>one2net(replyTo).write("wired at run time");
                return null;
            });
            NetChannelInput<String> replies = a.net2one();
            a.<NetChannelLocation>one2net(requests.location()).write(replies.location());
            assertEquals("wired at run time", replies.read());
            server.join();
        }
    }

    @Test
    void anyNumberOfWritersAndReaders() {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node c = nodes.start();
            NetSharedChannelInput<Integer> in = c.net2any();
            NetSharedChannelOutput<Integer> fromA = a.any2net(in.location());
            NetSharedChannelOutput<Integer> fromB = b.any2net(in.location());
            int writers = 4;
            int each = 300;
            List<Integer> got = Collections.synchronizedList(new ArrayList<>());
            Weft.run(s, () -> {
                List<CSProcess> ps = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int base = w * each;
                    NetSharedChannelOutput<Integer> out = w % 2 == 0 ? fromA : fromB;
                    ps.add(() -> {
                        for (int i = 0; i < each; i++) {
                            out.write(base + i);
                        }
                    });
                }
                One2OneChannel<Integer> never = Channel.one2one();
                for (int r = 0; r < 3; r++) {
                    boolean selecting = r == 0; // a net2any input is a guard too
                    ps.add(() -> {
                        Alternative alt = new Alternative(never.in(), in);
                        for (int i = 0; i < writers * each / 3; i++) {
                            if (selecting) {
                                assertEquals(1, alt.select());
                            }
                            got.add(in.read());
                        }
                    });
                }
                Parallel.run(ps.toArray(new CSProcess[0]));
            });
            Collections.sort(got);
            for (int i = 0; i < writers * each; i++) {
                assertEquals(i, got.get(i));
            }
        }
    }

    @Test
    void aWriteToThisVeryNodeWorksToo() {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.singleThreaded()) {
            Node a = nodes.start();
            NetChannelInput<String> in = a.net2one();
            NetChannelOutput<String> out = a.one2net(in.location());
            Weft.run(s, () -> Parallel.run(() -> out.write("self"), () -> assertEquals("self", in.read())));
        }
    }

    @Test
    void aTypeThatIsNotAllowedFailsAtTheWriter() {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Object> in = b.net2one();
            NetChannelOutput<Object> out = a.one2net(in.location());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> out.write(new java.util.ArrayList<String>()));
            assertTrue(e.getMessage().contains("ArrayList") && e.getMessage().contains("allow"), e.getMessage());
        }
    }

    record Point(int x, int y) {
    }

    @Test
    void allowedRecordsCross() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().allow(Point.class));
            Node b = nodes.start(TestCarriers.builder().allow(Point.class));
            NetChannelInput<Point> in = b.net2one(1);
            a.<Point>one2net(in.location()).write(new Point(3, 4));
            assertEquals(new Point(3, 4), in.read());
        }
    }

    @Test
    void aCancelledWriterWithdrawsItsUnreadValue() throws Exception {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.singleThreaded()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<String> in = b.net2one();
            NetChannelOutput<String> out = a.one2net(in.location());
            NetChannelOutput<String> other = a.one2net(in.location());
            Weft.run(s, () -> {
                Fiber first = Weft.spawn(() -> out.write("withdrawn"));
                new Alternative(in).priSelect(); // its value has arrived
                first.cancel();
                try {
                    first.join();
                    throw new AssertionError("the cancelled write returned");
                } catch (dev.weft.csp.CancelledException expected) {
                    // its value was never read
                }
                Fiber second = Weft.spawn(() -> other.write("delivered"));
                assertEquals("delivered", in.read());
                second.join();
            });
        }
    }

    @Test
    void aClosedPeerFailsTheEndsThatUsedItsLink() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<String> in = b.net2one();
            NetChannelOutput<String> out = a.one2net(in.location());
            NetChannelInput<String> back = a.net2one();
            b.<String>one2net(back.location()); // not used: a's input has never heard from b
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                out.write("to a node that goes away");
                return null;
            });
            writer.awaitBlocked();
            b.close();
            Throwable t = writer.failure();
            assertInstanceOf(LinkLostException.class, t);
            assertThrows(LinkLostException.class, () -> out.write("again"));
        }
    }

    @Test
    void anInputOutlivesAWriterWhoseNodeClosedInOrder() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node reader = nodes.start();
            Node leaving = nodes.start();
            Node staying = nodes.start();
            NetChannelInput<String> in = reader.net2one();
            Nodes.Party<Void> w1 = nodes.thread("leaving writer", () -> {
                leaving.<String>one2net(in.location()).write("goodbye");
                return null;
            });
            assertEquals("goodbye", in.read());
            w1.join();
            leaving.close(); // as a local writer that ends: the input goes on
            NetChannelOutput<String> out = staying.one2net(in.location());
            Nodes.Party<Void> w2 = nodes.thread("staying writer", () -> {
                out.write("still open");
                return null;
            });
            assertEquals("still open", in.read());
            w2.join();
        }
    }

    @Test
    void theEndsOfAClosedNodeArePoisonedEvenUnused() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<String> in = b.net2one();
            NetChannelOutput<String> unused = a.one2net(in.location());
            NetChannelInput<String> mine = a.net2one();
            Nodes.Party<String> reader = nodes.thread("reader", mine::read);
            reader.awaitBlocked();
            a.close();
            assertInstanceOf(PoisonException.class, reader.failure());
            assertThrows(PoisonException.class, () -> unused.write("after close"));
            assertThrows(PoisonException.class, () -> unused.poison());
            assertThrows(IllegalStateException.class, a::net2one);
            a.close(); // idempotent
        }
    }
}
