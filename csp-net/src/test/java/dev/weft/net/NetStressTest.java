package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CancelledException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many iterations on two workers: nothing lost, nothing duplicated, whatever is cancelled when. */
@Timeout(120)
class NetStressTest {
    private static final int ITERATIONS = Integer.getInteger("weft.netStressTest.iterations", 20);

    /**
     * Writers on one node, a reader on another, writers cancelled at random moments: a write that returned
     * was read exactly once, a write that threw was never read.
     */
    @Test
    void aCancelledNetWriteEitherDeliveredOrThrewNeverBoth() {
        Random random = new Random(7);
        int threw = 0;
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start();
            Node b = nodes.start();
            for (int it = 0; it < ITERATIONS; it++) {
                NetChannelInput<Integer> in = b.net2one();
                Set<Integer> delivered = ConcurrentHashMap.newKeySet();
                Set<Integer> withdrawn = ConcurrentHashMap.newKeySet();
                List<Integer> read = new ArrayList<>();
                int writers = 4;
                int each = 200;
                int seed = random.nextInt();
                Weft.run(s, () -> {
                    Fiber reader = Weft.spawn(() -> {
                        try {
                            for (;;) {
                                read.add(in.read());
                            }
                        } catch (PoisonException done) {
                            // every writer has ended
                        }
                    });
                    List<Fiber> ws = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        NetChannelOutput<Integer> out = a.one2net(in.location());
                        int base = w * each;
                        ws.add(Weft.spawn(() -> {
                            for (int i = 0; i < each; i++) {
                                try {
                                    out.write(base + i);
                                } catch (CancelledException e) {
                                    withdrawn.add(base + i);
                                    return;
                                }
                                delivered.add(base + i);
                            }
                        }));
                    }
                    Random r = new Random(seed);
                    for (Fiber w : ws) {
                        for (int k = r.nextInt(400); k > 0; k--) {
                            Fiber.yield();
                        }
                        w.cancel();
                    }
                    for (Fiber w : ws) {
                        try {
                            w.join();
                        } catch (CancelledException ignored) {
                            // cancelled before or between writes
                        }
                    }
                    in.poison(); // every delivered value has been read: the writes were synchronous
                    reader.join();
                });
                assertEquals(delivered.size(), read.size(), "duplicates or losses");
                assertEquals(delivered, Set.copyOf(read));
                for (Integer v : withdrawn) {
                    assertTrue(!read.contains(v), v + " was read, yet its write threw");
                }
                threw += withdrawn.size();
            }
        }
        assertTrue(threw > 0, "no write was ever withdrawn: the test did not test it");
    }

    @Test
    void sharedEndsOnThreeNodesManyTimes() {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start();
            Node b = nodes.start();
            Node c = nodes.start();
            for (int it = 0; it < ITERATIONS; it++) {
                NetSharedChannelInput<Integer> in = c.net2any();
                NetSharedChannelOutput<Integer> fromA = a.any2net(in.location());
                NetSharedChannelOutput<Integer> fromB = b.any2net(in.location());
                Set<Integer> got = ConcurrentHashMap.newKeySet();
                int writers = 4;
                int each = 100;
                Weft.run(s, () -> {
                    List<Fiber> fs = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        NetSharedChannelOutput<Integer> out = w % 2 == 0 ? fromA : fromB;
                        int base = w * each;
                        fs.add(Weft.spawn(() -> {
                            for (int i = 0; i < each; i++) {
                                out.write(base + i);
                            }
                        }));
                    }
                    for (int r = 0; r < 4; r++) {
                        fs.add(Weft.spawn(() -> {
                            for (int i = 0; i < writers * each / 4; i++) {
                                assertTrue(got.add(in.read()), "read twice");
                            }
                        }));
                    }
                    for (Fiber f : fs) {
                        f.join();
                    }
                });
                assertEquals(writers * each, got.size());
            }
        }
    }

    /** The figure: 100,000 net channels between two nodes, all over their one link. */
    @Test
    void aHundredThousandChannelsShareOneLink() throws Exception {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start();
            Node b = nodes.start();
            NetChannelInput<Integer> warmUp = b.net2one(1);
            a.<Integer>one2net(warmUp.location()).write(0); // the link is open from here on
            long socketsBefore = sockets();
            int n = 100_000;
            List<NetChannelInput<Integer>> ins = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ins.add(b.net2one(1));
            }
            Weft.run(s, () -> Parallel.forRange(0, n, i -> a.<Integer>one2net(ins.get(i).location()).write(i)));
            for (int i = 0; i < n; i++) {
                assertEquals(i, ins.get(i).read());
            }
            assertEquals(socketsBefore, sockets(), "a channel opened a socket of its own");
        }
    }

    /** This JVM's open sockets (Linux /proc), or -1 where that cannot be read. */
    private static long sockets() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        long n = 0;
        try (Stream<Path> all = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) all::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        n++;
                    }
                } catch (IOException closedMeanwhile) {
                    // an fd that closed while we listed
                }
            }
        }
        return n;
    }
}
