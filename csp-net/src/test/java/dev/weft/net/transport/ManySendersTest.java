package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.poll.CarrierLoops;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A link's queue has many producers and one consumer (the drains on its loop): fibers on every carrier and a plain
 * thread send on one link at once, and every frame arrives once, each sender's in its order; then a link lost
 * while they send delivers nothing more and the senders return.
 */
class ManySendersTest {
    private static final int FIBERS = 4;
    private static final int FRAMES = 2_000;
    private static final int ROUNDS = 10;

    @ParameterizedTest(name = "{0} carriers")
    @ValueSource(ints = {1, 2})
    @Timeout(120)
    void everySendersFramesArriveOnceAndInOrder(int carriers) throws Exception {
        try (Scheduler s = Scheduler.create(carriers)) {
            InOrder heard = new InOrder(FIBERS + 1);
            Transport a = Transport.start(Nodes.config(), new Recorder(), CarrierLoops.of(s));
            Transport b = Transport.start(Nodes.config(), heard, CarrierLoops.of(s));
            try {
                Link link = a.link(b.address());
                for (int round = 0; round < ROUNDS; round++) {
                    heard.expect(FRAMES * (FIBERS + 1));
                    List<Fiber> fibers = new ArrayList<>();
                    for (int w = 0; w < FIBERS; w++) {
                        int writer = w;
                        fibers.add(Weft.spawn(s, () -> sendAll(link, writer)));
                    }
                    Thread plain = new Thread(() -> sendAll(link, FIBERS));
                    plain.start();
                    for (Fiber f : fibers) {
                        f.join();
                    }
                    plain.join(TimeUnit.SECONDS.toMillis(30));
                    assertTrue(heard.awaitAll(), "round " + round + ": " + heard.count() + " frames of " + FRAMES * (FIBERS + 1));
                    assertNull(heard.wrong.get());
                }
            } finally {
                a.close();
                b.close();
            }
        }
    }

    @ParameterizedTest(name = "{0} carriers")
    @ValueSource(ints = {1, 2})
    @Timeout(120)
    void aLinkLostWhileTheySendDeliversNothingMoreAndTheSendersReturn(int carriers) throws Exception {
        try (Scheduler s = Scheduler.create(carriers)) {
            for (int round = 0; round < ROUNDS; round++) {
                InOrder heard = new InOrder(FIBERS + 1);
                heard.expect(1);
                Transport a = Transport.start(Nodes.config(), new Recorder(), CarrierLoops.of(s));
                Transport b = Transport.start(Nodes.config(), heard, CarrierLoops.of(s));
                try {
                    Link link = a.link(b.address());
                    List<Fiber> fibers = new ArrayList<>();
                    for (int w = 0; w < FIBERS; w++) {
                        int writer = w;
                        fibers.add(Weft.spawn(s, () -> sendAll(link, writer)));
                    }
                    assertTrue(heard.awaitAll(), "a first frame");
                    link.refuse("enough"); // while the fibers send, from another thread
                    sendAll(link, FIBERS); // on a lost link: dropped at once
                    for (Fiber f : fibers) {
                        f.join();
                    }
                    assertTrue(link.isLost());
                    Nodes.await("the peer hears of the loss", heard::heardLoss);
                    assertNull(heard.wrong.get());
                } finally {
                    a.close();
                    b.close();
                }
            }
        }
    }

    /** Writer {@code writer}'s frames, numbered in the order sent (its channel says whose they are). */
    private static void sendAll(Link link, int writer) {
        for (int n = 1; n <= FRAMES; n++) {
            link.send(new Frame((byte) 16, writer, n, new byte[] {(byte) n}));
        }
    }

    /** Checks each writer's frames come numbered 1, 2, 3, ... within a round, and counts them. */
    private static final class InOrder implements LinkListener {
        final AtomicReference<String> wrong = new AtomicReference<>();
        private final long[] last;
        private volatile boolean lost;
        private volatile CountDownLatch all;

        InOrder(int writers) {
            last = new long[writers];
        }

        void expect(int frames) {
            java.util.Arrays.fill(last, 0); // the round's senders start once this is published (by all)
            all = new CountDownLatch(frames);
        }

        boolean awaitAll() throws InterruptedException {
            return all.await(60, TimeUnit.SECONDS);
        }

        long count() {
            return all.getCount();
        }

        @Override
        public void received(Link link, byte type, long channel, long number, byte[] payload) {
            if (lost) {
                wrong.compareAndSet(null, "a frame after the link was lost");
            }
            int w = (int) channel;
            if (number != last[w] + 1 || payload.length != 1 || payload[0] != (byte) number) {
                wrong.compareAndSet(null, "writer " + w + ": frame " + number + " after " + last[w]);
            }
            last[w] = number;
            all.countDown();
        }

        @Override
        public void lost(Link link, String why) {
            lost = true;
        }

        boolean heardLoss() {
            return lost;
        }
    }
}
