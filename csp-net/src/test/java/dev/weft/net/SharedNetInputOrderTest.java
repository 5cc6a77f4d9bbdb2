package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code net2any} input read by selecting and plain readers at once, written by several remote writers:
 * every reader sees each writer's values in that writer's order, and every value is read exactly once. (Its
 * local channel is a shared end with waiting selects, the case where a claimed select once let a plain reader
 * be served out of order.) Once on one worker, then several times on two.
 */
class SharedNetInputOrderTest {
    private static final int WRITERS = 3;
    private static final int VALUES = 200;
    private static final int READERS = 4;

    @Test
    @Timeout(180)
    void selectingAndPlainReadersSeeEachRemoteWritersValuesInOrder() {
        try (Nodes nodes = new Nodes()) {
            Node reading = nodes.start();
            Node writing = nodes.start();
            for (int workers : new int[] {1, 2, 2, 2}) {
                try (Scheduler s = Scheduler.create(workers)) {
                    NetSharedChannelInput<Integer> in = reading.net2any();
                    AtomicIntegerArray count = new AtomicIntegerArray(WRITERS * VALUES);
                    Weft.run(s, () -> {
                        CSProcess[] parties = new CSProcess[WRITERS + READERS];
                        for (int w = 0; w < WRITERS; w++) {
                            NetSharedChannelOutput<Integer> out = writing.any2net(in.location());
                            int writer = w;
                            parties[w] = () -> {
                                for (int k = 0; k < VALUES; k++) {
                                    out.write(writer * VALUES + k);
                                }
                            };
                        }
                        for (int r = 0; r < READERS; r++) {
                            boolean selecting = r % 2 == 0;
                            parties[WRITERS + r] = () -> read(in, selecting, count);
                        }
                        Parallel.run(parties);
                    });
                    for (int i = 0; i < count.length(); i++) {
                        assertEquals(1, count.get(i), "value " + i);
                    }
                }
            }
        }
    }

    /** Reads a fair share of the values, checking each writer's order. */
    @Pausable
    private static void read(NetSharedChannelInput<Integer> in, boolean selecting, AtomicIntegerArray count) {
        int[] last = new int[WRITERS];
        Arrays.fill(last, -1);
        Alternative alt = new Alternative(in, Guards.timeout(Duration.ofMillis(2)));
        for (int n = 0; n < WRITERS * VALUES / READERS; n++) {
            while (selecting && alt.priSelect() != 0) {
                Fiber.yield(); // the timeout: choose again
            }
            int v = in.read();
            int writer = v / VALUES;
            assertTrue(v % VALUES > last[writer], "writer " + writer + "'s " + v % VALUES + " after " + last[writer]);
            last[writer] = v % VALUES;
            count.incrementAndGet(v);
        }
    }
}
