package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One net output shared by writers that come and go, alone and overlapping: a lone writer reuses the output's spare
 * lane, overlapping ones take further lanes; every synchronous write is read exactly once, each writer's values in
 * its order, on one and two carriers.
 */
class SharedOutputLanesTest {
    private static final int WRITERS = 4;
    private static final int VALUES = 300;
    private static final int ROUNDS = 8;

    @ParameterizedTest(name = "{0} carriers")
    @ValueSource(ints = {1, 2})
    @Timeout(180)
    void aSharedOutputsWritesAreEachReadOnceInEachWritersOrder(int carriers) {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(carriers)) {
            Node reading = nodes.start();
            Node writing = nodes.start();
            NetChannelInput<Integer> in = reading.net2one();
            NetSharedChannelOutput<Integer> out = writing.any2net(in.location());
            for (int round = 0; round < ROUNDS; round++) {
                int writers = round % 2 == 0 ? 1 : WRITERS; // alone, then overlapping, in turn
                AtomicIntegerArray count = new AtomicIntegerArray(writers * VALUES);
                Weft.run(s, () -> {
                    CSProcess[] parties = new CSProcess[writers + 1];
                    for (int w = 0; w < writers; w++) {
                        int writer = w;
                        parties[w] = () -> {
                            for (int k = 0; k < VALUES; k++) {
                                out.write(writer * VALUES + k);
                                if (k % 7 == writer) {
                                    Fiber.yield(); // let the others' writes overlap this writer's next
                                }
                            }
                        };
                    }
                    parties[writers] = () -> {
                        int[] last = new int[writers];
                        java.util.Arrays.fill(last, -1);
                        for (int n = 0; n < writers * VALUES; n++) {
                            int v = in.read();
                            int writer = v / VALUES;
                            assertTrue(v % VALUES > last[writer], "writer " + writer + "'s " + v % VALUES + " after " + last[writer]);
                            last[writer] = v % VALUES;
                            count.incrementAndGet(v);
                        }
                    };
                    Parallel.run(parties);
                });
                for (int i = 0; i < count.length(); i++) {
                    assertEquals(1, count.get(i), "round " + round + ", value " + i);
                }
            }
        }
    }
}
