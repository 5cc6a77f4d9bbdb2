package dev.weft.net.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.weft.csp.Alternative;
import dev.weft.csp.Fiber;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.ChildNode;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.Nodes;
import dev.weft.net.TestCarriers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mobile net inputs: an input written to a net channel moves to the node that reads it; its location stays
 * valid, its writers are redirected, no value is lost or duplicated, each writer's order is kept.
 */
@Timeout(120)
class MobileInputTest {
    private static final int ITERATIONS = Integer.getInteger("weft.mobileInputTest.iterations", 3);
    private static final int WRITERS = 4;
    private static final int EACH = 10_000;
    private static final int STRIDE = 1_000_000; // a value is writer * STRIDE + its index

    /** The test: a synchronous input moved while 4 writers on 2 nodes write 10,000 values each. */
    @Test
    void aSynchronousInputMovedWhileFourWritersOnTwoNodesWrite() {
        moveUnderLoad(0, 1);
        moveUnderLoad(0, 2);
    }

    /** The same with a buffered input: its unread values move with it, ahead of anything newer. */
    @Test
    void aBufferedInputMovedWhileFourWritersOnTwoNodesWrite() {
        moveUnderLoad(16, 1);
        moveUnderLoad(16, 2);
    }

    private static void moveUnderLoad(int capacity, int workers) {
        Random random = new Random(11 + capacity + workers);
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(workers)) {
            Node home = nodes.start();
            Node next = nodes.start();
            Node[] writerNodes = {nodes.start(), nodes.start()};
            for (int it = 0; it < ITERATIONS; it++) {
                NetChannelInput<Integer> in = capacity == 0 ? home.net2one() : home.net2one(capacity);
                NetChannelInput<NetChannelInput<Integer>> carrier = next.net2one();
                NetChannelOutput<NetChannelInput<Integer>> toNext = home.one2net(carrier.location());
                int moveAfter = random.nextInt(WRITERS * EACH);
                List<Integer> before = new ArrayList<>();
                List<Integer> after = new ArrayList<>();
                List<NetOutput<Integer>> outs = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    outs.add((NetOutput<Integer>) writerNodes[w % 2].<Integer>one2net(in.location()));
                }
                Weft.run(s, () -> {
                    List<Fiber> fs = new ArrayList<>();
                    for (int w = 0; w < WRITERS; w++) {
                        NetChannelOutput<Integer> out = outs.get(w);
                        int base = w * STRIDE;
                        fs.add(Weft.spawn(() -> {
                            for (int i = 0; i < EACH; i++) {
                                out.write(base + i);
                            }
                        }));
                    }
                    fs.add(Weft.spawn(() -> {
                        for (int k = 0; k < moveAfter; k++) {
                            before.add(in.read());
                        }
                        toNext.write(in);
                    }));
                    fs.add(Weft.spawn(() -> {
                        NetChannelInput<Integer> moved = carrier.read();
                        assertEquals(in.location(), moved.location());
                        while (before.size() + after.size() < WRITERS * EACH) { // `before` is complete once moved
                            after.add(moved.read());
                        }
                    }));
                    for (Fiber f : fs) {
                        f.join();
                    }
                });
                assertEquals(moveAfter, before.size());
                assertEveryValueOnceInOrder(before, after);
                if (after.size() > WRITERS * (capacity + 2)) { // then some writer wrote to the old home after the move
                    assertTrue(outs.stream().anyMatch(o -> o.currentRoute().moves() == 1), "no writer was redirected");
                }
                IllegalStateException gone = assertThrows(IllegalStateException.class, in::read);
                assertTrue(gone.getMessage().contains("moved"), gone.getMessage());
            }
        }
    }

    /** A -> B -> C under load, writers on the first and the last home (self links both): nothing lost, order kept. */
    @Test
    void anInputMovedTwiceUnderLoad() {
        for (int capacity : new int[] {0, 8}) {
            Random random = new Random(5 + capacity);
            try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
                Node a = nodes.start();
                Node b = nodes.start();
                Node c = nodes.start();
                for (int it = 0; it < ITERATIONS; it++) {
                    NetChannelInput<Integer> in = capacity == 0 ? a.net2one() : a.net2one(capacity);
                    NetChannelInput<NetChannelInput<Integer>> toB = b.net2one();
                    NetChannelInput<NetChannelInput<Integer>> toC = c.net2one();
                    NetChannelOutput<NetChannelInput<Integer>> fromA = a.one2net(toB.location());
                    NetChannelOutput<NetChannelInput<Integer>> fromB = b.one2net(toC.location());
                    int first = random.nextInt(WRITERS * EACH / 2);
                    int second = random.nextInt(WRITERS * EACH / 2);
                    List<Integer> atA = new ArrayList<>();
                    List<Integer> atB = new ArrayList<>();
                    List<Integer> atC = new ArrayList<>();
                    Weft.run(s, () -> {
                        List<Fiber> fs = new ArrayList<>();
                        for (int w = 0; w < WRITERS; w++) {
                            NetChannelOutput<Integer> out = (w % 2 == 0 ? a : c).one2net(in.location());
                            int base = w * STRIDE;
                            fs.add(Weft.spawn(() -> {
                                for (int i = 0; i < EACH; i++) {
                                    out.write(base + i);
                                }
                            }));
                        }
                        fs.add(Weft.spawn(() -> {
                            for (int k = 0; k < first; k++) {
                                atA.add(in.read());
                            }
                            fromA.write(in);
                        }));
                        fs.add(Weft.spawn(() -> {
                            NetChannelInput<Integer> here = toB.read();
                            for (int k = 0; k < second; k++) {
                                atB.add(here.read());
                            }
                            fromB.write(here);
                        }));
                        fs.add(Weft.spawn(() -> {
                            NetChannelInput<Integer> here = toC.read();
                            assertEquals(in.location(), here.location());
                            while (atC.size() < WRITERS * EACH - first - second) {
                                atC.add(here.read());
                            }
                        }));
                        for (Fiber f : fs) {
                            f.join();
                        }
                    });
                    List<Integer> before = new ArrayList<>(atA);
                    before.addAll(atB);
                    assertEveryValueOnceInOrder(before, atC);
                }
            }
        }
    }

    /**
     * A -> B -> C: a writer that wrote to B, and a new writer, end up writing straight to C, not along the
     * chain: the first home hears of each move, and so does the home left.
     */
    @Test
    void writersAreRedirectedToTheNewestHome() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node c = nodes.start();
            Node w = nodes.start();
            NetChannelInput<Integer> in = a.net2one(4);
            NetOutput<Integer> early = output(w, in);
            early.write(1);
            NetChannelInput<Integer> atB = move(in, a, b);
            assertEquals(1, atB.read());
            early.write(2); // by way of A, which tells it that the input is at B
            assertEquals(2, atB.read());
            awaitRoute(early, b, 1);
            early.write(3); // straight to B
            assertEquals(3, atB.read());
            NetChannelInput<Integer> atC = move(atB, b, c);
            early.write(4); // by way of B
            assertEquals(4, atC.read());
            awaitRoute(early, c, 2);
            NetOutput<Integer> late = output(w, in);
            late.write(5); // by way of A, which points at C now
            assertEquals(5, atC.read());
            awaitRoute(late, c, 2);
            assertThrows(IllegalStateException.class, atB::read);
        }
    }

    /** Moves {@code end} from node {@code from} to node {@code to}, through a buffered channel read there. */
    private static <T> NetChannelInput<T> move(NetChannelInput<T> end, Node from, Node to) {
        NetChannelInput<NetChannelInput<T>> carrier = to.net2one(1);
        from.<NetChannelInput<T>>one2net(carrier.location()).write(end);
        return carrier.read();
    }

    /** An output from {@code node} to {@code in}, as its class, to see its route. */
    private static <T> NetOutput<T> output(Node node, NetChannelInput<T> in) {
        return (NetOutput<T>) node.<T>one2net(in.location());
    }

    /** Waits (bounded by the test's timeout) until {@code out} writes straight to {@code home}. */
    private static void awaitRoute(NetOutput<?> out, Node home, long moves) {
        while (out.currentRoute().moves() != moves || !out.currentRoute().link().peer().equals(home.address())) {
            assertTrue(out.currentRoute().moves() <= moves, "redirected past " + home);
            Thread.onSpinWait();
        }
    }

    /**
     * A synchronous write by way of the old home returns only once the reader at the new home took it; a
     * writer cancelled (its thread interrupted) while its value is there withdraws it, as without a move.
     */
    @Test
    void aSynchronousWriteByWayOfTheOldHome() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node w = nodes.start();
            NetChannelInput<Integer> in = a.net2one();
            NetChannelInput<Integer> moved = move(in, a, b);
            Nodes.Party<Void> writer = writeOnce(nodes, w.one2net(in.location()), 1);
            assertEquals(0, new Alternative(moved).priSelect()); // the value has arrived at B...
            writer.awaitBlocked();
            assertFalse(writer.isDone()); // ...and its writer still waits for the read
            assertEquals(1, moved.read());
            writer.join();
            Nodes.Party<Void> cancelled = writeOnce(nodes, w.one2net(in.location()), 2); // a new output: by way of A
            assertEquals(0, new Alternative(moved).priSelect());
            cancelled.thread.interrupt();
            assertInstanceOf(dev.weft.csp.CancelledException.class, cancelled.failure());
            Nodes.Party<Void> next = writeOnce(nodes, w.one2net(in.location()), 3);
            assertEquals(3, moved.read()); // 2 was withdrawn
            next.join();
        }
    }

    private static Nodes.Party<Void> writeOnce(Nodes nodes, NetChannelOutput<Integer> out, int value) {
        return nodes.thread("writer of " + value, () -> {
            out.write(value);
            return null;
        });
    }

    /** A -> B -> A: back on its first node the input is a new end there; writers old and new still reach it. */
    @Test
    void anInputMovesBackToItsFirstNode() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node w = nodes.start();
            NetChannelInput<Integer> in = a.net2one(4);
            NetOutput<Integer> out = output(w, in);
            out.write(1);
            NetChannelInput<Integer> atB = move(in, a, b);
            out.write(2);
            assertEquals(1, atB.read());
            assertEquals(2, atB.read());
            awaitRoute(out, b, 1);
            out.write(3);
            NetChannelInput<Integer> back = move(atB, b, a);
            assertEquals(in.location(), back.location());
            out.write(4);
            w.<Integer>one2net(in.location()).write(5); // a new writer: by way of the first home's pointer
            // Two writers: 3 comes before 4 (one writer's order), 5 may come anywhere.
            java.util.List<Integer> got = java.util.List.of(back.read(), back.read(), back.read());
            assertEquals(java.util.Set.of(3, 4, 5), new java.util.HashSet<>(got), "each once: " + got);
            assertTrue(got.indexOf(3) < got.indexOf(4), "one writer's order: " + got);
            awaitRoute(out, a, 2);
            assertThrows(IllegalStateException.class, in::read);
        }
    }

    /** The end written to a channel read on its own node: a new end there, the same location, writers unaware. */
    @Test
    void anInputMovesOnItsOwnNode() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node w = nodes.start();
            NetChannelInput<String> in = a.net2one(2);
            NetChannelOutput<String> out = w.one2net(in.location());
            out.write("before");
            NetChannelInput<String> moved = move(in, a, a);
            assertTrue(moved != in);
            assertEquals(in.location(), moved.location());
            out.write("after");
            assertEquals("before", moved.read());
            assertEquals("after", moved.read());
            assertThrows(IllegalStateException.class, in::pending);
        }
    }

    /** Every use of the end left behind throws, saying that it moved, and where. */
    @Test
    void theEndLeftBehindSaysWhereItWent() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Integer> in = a.net2one(1);
            NetChannelInput<NetChannelInput<Integer>> carrier = b.net2one(1);
            NetChannelOutput<NetChannelInput<Integer>> toB = a.one2net(carrier.location());
            toB.write(in);
            NetChannelInput<Integer> moved = carrier.read();
            NetChannelOutput<Integer> out = a.one2net(in.location());
            out.write(7); // by way of the old home, which learns where the input lives on the way
            assertEquals(7, moved.read());
            IllegalStateException e = assertThrows(IllegalStateException.class, in::read);
            assertTrue(e.getMessage().contains("moved") && e.getMessage().contains(b.address().toString()),
                    e.getMessage());
            assertThrows(IllegalStateException.class, in::pending);
            assertThrows(IllegalStateException.class, in::poison);
            assertThrows(IllegalStateException.class, () -> toB.write(in)); // it has moved already
            assertEquals(0, new Alternative(in).priSelect()); // as a guard it is ready, and its read throws
            assertThrows(IllegalStateException.class, in::read);
        }
    }

    /** An end that a reader waits on, in a read or in an alternative, is not moved; once free, it is. */
    @Test
    void anEndInUseDoesNotMove() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Integer> in = a.net2one();
            NetChannelOutput<Integer> out = b.one2net(in.location());
            NetChannelInput<NetChannelInput<Integer>> carrier = b.net2one(1);
            NetChannelOutput<NetChannelInput<Integer>> toB = a.one2net(carrier.location());
            Nodes.Party<Integer> reader = nodes.thread("reader", in::read);
            reader.awaitBlocked();
            IllegalStateException busy = assertThrows(IllegalStateException.class, () -> toB.write(in));
            assertTrue(busy.getMessage().contains("reads"), busy.getMessage());
            out.write(1);
            assertEquals(1, reader.join());
            Nodes.Party<Integer> selector = nodes.thread("selector", () -> new Alternative(in).select());
            selector.awaitBlocked();
            assertThrows(IllegalStateException.class, () -> toB.write(in));
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                out.write(2);
                return null;
            });
            assertEquals(0, selector.join());
            assertEquals(2, in.read());
            writer.join();
            toB.write(in); // free now: it moves, whole
            NetChannelInput<Integer> moved = carrier.read();
            Nodes.Party<Void> later = nodes.thread("later", () -> {
                out.write(3);
                return null;
            });
            assertEquals(3, moved.read());
            later.join();
        }
    }

    /** A poisoned end stays poisoned when it moves; poison crosses between the moved end and its writers. */
    @Test
    void poisonAndMoves() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node w = nodes.start();
            NetChannelInput<NetChannelInput<Integer>> carrier = b.net2one(3);
            NetChannelOutput<NetChannelInput<Integer>> toB = a.one2net(carrier.location());

            NetChannelInput<Integer> poisoned = a.net2one();
            poisoned.poison();
            toB.write(poisoned);
            NetChannelInput<Integer> stillPoisoned = carrier.read();
            assertThrows(PoisonException.class, stillPoisoned::read);
            assertThrows(PoisonException.class, () -> w.<Integer>one2net(poisoned.location()).write(1));

            NetChannelInput<Integer> readerPoisons = a.net2one(4);
            NetChannelOutput<Integer> early = w.one2net(readerPoisons.location());
            early.write(1);
            toB.write(readerPoisons);
            NetChannelInput<Integer> moved = carrier.read();
            assertEquals(1, moved.read());
            moved.poison();
            assertThrows(PoisonException.class, () -> {
                for (int i = 0; i < 10; i++) { // buffered: a write on credit may return before the news comes
                    early.write(i);
                }
            });
            assertThrows(PoisonException.class, () -> w.<Integer>one2net(readerPoisons.location()).write(1));

            NetChannelInput<Integer> writerPoisons = a.net2one();
            toB.write(writerPoisons);
            NetChannelInput<Integer> moved2 = carrier.read();
            w.<Integer>one2net(writerPoisons.location()).poison(); // by way of the old home
            assertThrows(PoisonException.class, moved2::read);
        }
    }

    /**
     * The old home closes once its writers are redirected: they go on, and every value is read once, in
     * order. A writer that never wrote cannot reach the input any more: its write fails with
     * {@link LinkLostException}.
     */
    @Test
    void theOldHomeClosesAfterTheMove() throws Exception {
        int each = 2_000;
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node[] writerNodes = {nodes.start(), nodes.start()};
            NetChannelInput<Integer> in = a.net2one();
            NetChannelInput<NetChannelInput<Integer>> carrier = b.net2one(1);
            List<NetOutput<Integer>> outs = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                outs.add((NetOutput<Integer>) writerNodes[w % 2].<Integer>one2net(in.location()));
            }
            NetOutput<Integer> idle = (NetOutput<Integer>) writerNodes[0].<Integer>one2net(in.location());
            Nodes.Party<Void> once = nodes.thread("idle", () -> {
                idle.write(-1);
                return null;
            });
            assertEquals(-1, in.read());
            once.join();
            List<Integer> read = new ArrayList<>();
            Fiber[] writers = new Fiber[WRITERS];
            for (int w = 0; w < WRITERS; w++) {
                NetChannelOutput<Integer> out = outs.get(w);
                int base = w * STRIDE;
                writers[w] = Weft.spawn(s, () -> {
                    for (int i = 0; i < each; i++) {
                        out.write(base + i);
                    }
                });
            }
            for (int k = 0; k < 100; k++) {
                read.add(in.read());
            }
            a.<NetChannelInput<Integer>>one2net(carrier.location()).write(in);
            NetChannelInput<Integer> moved = carrier.read();
            Fiber reader = Weft.spawn(s, () -> {
                while (read.size() < WRITERS * each) {
                    read.add(moved.read());
                }
            });
            for (NetOutput<Integer> out : outs) { // each writes to B now, nothing of its left on the way by A
                while (out.currentRoute().moves() != 1 || !out.settledOffRoute()) {
                    Thread.onSpinWait();
                }
            }
            a.close();
            for (Fiber w : writers) {
                w.join();
            }
            reader.join();
            int[] nextOf = new int[WRITERS];
            for (int v : read) {
                assertEquals(nextOf[v / STRIDE]++, v % STRIDE);
            }
            // a writer that had written before the move was told where the input went, even idle
            assertEquals(1, idle.currentRoute().moves());
            Nodes.Party<Void> late = nodes.thread("late", () -> {
                idle.write(1);
                return null;
            });
            assertEquals(1, moved.read());
            late.join();
            // a writer that never wrote knows only the location, whose node is gone
            NetChannelOutput<Integer> fresh = writerNodes[1].one2net(in.location());
            assertInstanceOf(LinkLostException.class, assertThrows(PoisonException.class, () -> fresh.write(1)));
        }
    }

    /**
     * The input's new home, a JVM of its own, is killed: its writers fail with {@link LinkLostException}
     * within the heartbeat timeout, the one redirected to it and one that comes by way of the old home.
     */
    @Test
    void theNewHomeKilled() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().serveNames().heartbeat(Duration.ofMillis(200), timeout));
            Node w = nodes.start(TestCarriers.builder().heartbeat(Duration.ofMillis(200), timeout));
            NetChannelInput<Integer> in = a.net2one();
            Process child = ChildNode.start(a.address(), "mobile");
            try {
                NetOutput<Integer> out = (NetOutput<Integer>) w.<Integer>one2net(in.location());
                Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                    for (int i = 0; ; i++) {
                        out.write(i);
                    }
                });
                assertEquals(0, in.read());
                a.<NetChannelInput<Integer>>one2net("mobile.carrier", Duration.ofSeconds(10)).write(in);
                while (out.currentRoute().moves() != 1) { // the writer writes to the child now
                    Thread.onSpinWait();
                }
                long killed = System.nanoTime();
                child.destroyForcibly();
                assertInstanceOf(LinkLostException.class, writer.failure());
                NetChannelOutput<Integer> fresh = w.one2net(in.location()); // by way of the old home
                assertInstanceOf(LinkLostException.class, assertThrows(PoisonException.class, () -> fresh.write(1)));
                long tookMs = (System.nanoTime() - killed) / 1_000_000;
                assertTrue(tookMs < timeout.toMillis() + 1000, "took " + tookMs + " ms");
            } finally {
                child.destroyForcibly();
            }
        }
    }

    /** Every writer's values, read before and after the move, are 0 to EACH - 1, each once, in order. */
    private static void assertEveryValueOnceInOrder(List<Integer> before, List<Integer> after) {
        int[] nextOf = new int[WRITERS];
        List<Integer> all = new ArrayList<>(before);
        all.addAll(after);
        for (int v : all) {
            int w = v / STRIDE;
            assertEquals(nextOf[w], v % STRIDE, "writer " + w + ": out of order, lost or duplicated (read "
                    + before.size() + " before the move)");
            nextOf[w]++;
        }
        for (int w = 0; w < WRITERS; w++) {
            assertEquals(EACH, nextOf[w], "writer " + w);
        }
    }
}
