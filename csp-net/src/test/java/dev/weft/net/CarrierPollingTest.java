package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.runtime.Carrier;
import dev.weft.net.codec.KryoCodec;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Nodes on a scheduler: the carriers poll the sockets themselves, and a value reaches its reader with no hand-off. */
@Timeout(60)
class CarrierPollingTest {
    /** The default codec, noting the thread that decodes each value: the thread that read it from the socket. */
    static final class DecodingThread implements Codec {
        private final Codec codec = new KryoCodec();
        volatile Thread last;

        @Override
        public byte[] encode(Object value) {
            return codec.encode(value);
        }

        @Override
        public Object decode(byte[] bytes) {
            last = Thread.currentThread();
            return codec.decode(bytes);
        }
    }

    /**
     * A ping-pong between fibers on two nodes of one single-carrier scheduler: each value is decoded by the carrier
     * that polled its socket, and the fiber that reads it runs on that same thread; no event-loop thread exists.
     */
    @Test
    void aValueReachesItsReaderOnTheThreadThatReadTheSocket() throws Exception {
        DecodingThread codecA = new DecodingThread();
        DecodingThread codecB = new DecodingThread();
        try (Scheduler s = Scheduler.create(1)) {
            java.util.Set<Thread> before = loopThreads();
            Node a = Node.builder().scheduler(s).codec(codecA).start();
            Node b = Node.builder().scheduler(s).codec(codecB).start();
            try {
                NetChannelInput<Integer> toB = b.net2one();
                NetChannelInput<Integer> toA = a.net2one();
                NetChannelOutput<Integer> outA = a.one2net(toB.location());
                NetChannelOutput<Integer> outB = b.one2net(toA.location());
                int rounds = 1_000;
                AtomicInteger handOffs = new AtomicInteger();
                Weft.run(s, () -> Parallel.run(() -> {
                    for (int i = 0; i < rounds; i++) {
                        outA.write(i);
                        int back = toA.read();
                        assertEquals(i, back);
                        if (codecA.last != Thread.currentThread()) {
                            handOffs.incrementAndGet();
                        }
                    }
                }, () -> {
                    for (int i = 0; i < rounds; i++) {
                        int v = toB.read();
                        if (codecB.last != Thread.currentThread()) {
                            handOffs.incrementAndGet();
                        }
                        outB.write(v);
                    }
                }));
                assertEquals(0, handOffs.get());
                assertTrue(codecA.last instanceof Carrier, "decoded on " + codecA.last);
                java.util.Set<Thread> started = loopThreads();
                started.removeAll(before);
                assertEquals(java.util.Set.of(), started, "a node on a scheduler starts no event loop thread");
            } finally {
                a.close();
                b.close();
            }
        }
    }

    private static java.util.Set<Thread> loopThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("weft-net-")
                && !t.getName().startsWith("weft-net-lookup")).collect(java.util.stream.Collectors.toSet());
    }

    /**
     * A fiber computes for long on the carrier whose loop serves a node: another, idle carrier polls that loop for
     * it, so a value sent to the node reaches its reader (on the helping carrier) while the slice still runs.
     */
    @Test
    void aLongSliceDoesNotStarveItsCarriersSockets() throws Exception {
        DecodingThread codec = new DecodingThread();
        try (Scheduler s = Scheduler.create(2); Nodes nodes = new Nodes()) {
            Node plain = nodes.start(); // its own loop thread: a writer outside the scheduler
            AtomicReference<Thread> computing = new AtomicReference<>();
            AtomicReference<Thread> reading = new AtomicReference<>();
            AtomicReference<NetChannelLocation> where = new AtomicReference<>();
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                while (where.get() == null) {
                    Thread.onSpinWait();
                }
                plain.<String>one2net(where.get()).write("during the slice");
                return null;
            });
            Weft.run(s, () -> {
                computing.set(Thread.currentThread());
                Node served = nodes.add(Node.builder().codec(codec).start()); // on this carrier's loop
                NetChannelInput<String> in = served.net2one();
                Weft.spawn(() -> { // the idle carrier takes it: this one never pauses
                    assertEquals("during the slice", in.read());
                    reading.set(Thread.currentThread());
                });
                where.set(in.location());
                long giveUp = System.nanoTime() + 20_000_000_000L;
                while (reading.get() == null && System.nanoTime() - giveUp < 0) {
                    Thread.onSpinWait(); // a slice that never pauses
                }
                assertEquals(computing.get(), Thread.currentThread());
            });
            writer.join();
            assertTrue(reading.get() != null, "the value was not read while the slice ran");
            assertNotEquals(computing.get(), reading.get());
            assertEquals(reading.get(), codec.last);
        }
    }

    /**
     * Plain threads write to fibers while their carriers sit in epoll_wait: every wake-up reaches the carrier, on
     * one carrier and on two, over many rounds (a lost one would hang the round until the test's timeout).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void wakeUpsFromPlainThreadsReachCarriersWaitingInThePoller(int workers) throws Exception {
        try (Scheduler s = Scheduler.create(workers); Nodes nodes = new Nodes()) {
            Node onCarriers = nodes.add(Node.builder().scheduler(s).start());
            Node plain = nodes.start();
            NetChannelInput<Integer> net = onCarriers.net2one();
            NetChannelOutput<Integer> netOut = plain.one2net(net.location());
            One2OneChannel<Integer> local = Channel.one2one();
            int rounds = 3_000;
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                for (int i = 0; i < rounds; i++) {
                    local.out().write(i); // a fiber's wake-up from outside: the carrier's poller is woken
                    netOut.write(i); // a frame: the carrier's epoll sees it
                }
                return null;
            });
            List<Integer> seen = new java.util.ArrayList<>();
            Weft.run(s, () -> {
                for (int i = 0; i < rounds; i++) {
                    seen.add(local.in().read());
                    seen.add(net.read());
                }
            });
            writer.join();
            for (int i = 0; i < rounds; i++) {
                assertEquals(i, seen.get(2 * i));
                assertEquals(i, seen.get(2 * i + 1));
            }
        }
    }
}
