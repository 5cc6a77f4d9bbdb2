package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fibers selecting and plainly reading and writing the shared ends of one channel, closed at the end: every
 * reader sees each writer's values in that writer's order, every write that returned is read exactly once,
 * and no reader reads a value after it has seen the end. Synchronous and buffered, selects on either side, once
 * on one worker and many times on two.
 */
class SharedEndOrderTest {
    private static final int ITERATIONS = Integer.getInteger("weft.sharedEndOrderTest.iterations", 40);
    private static final int WRITERS = 3;
    private static final int VALUES = 600;

    @Test
    @Timeout(180)
    void eachReaderSeesEachWritersValuesInOrderAndNothingAfterTheEnd() {
        for (int capacity : new int[] {0, 1, 3}) {
            Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> exchange(capacity)));
        }
    }

    @Pausable
    private static void exchange(int capacity) {
        Any2AnyChannel<Integer> c = Channel.any2any(capacity);
        AtomicIntegerArray readCount = new AtomicIntegerArray(WRITERS * VALUES);
        AtomicIntegerArray written = new AtomicIntegerArray(WRITERS * VALUES);
        List<CSProcess> readers = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            boolean selecting = r % 2 == 0;
            readers.add(() -> read(c.in(), selecting, readCount));
        }
        CSProcess writers = () -> {
            CSProcess[] ws = new CSProcess[WRITERS];
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                ws[w] = () -> write(c.out(), writer, writer != 1, written);
            }
            Parallel.run(ws);
            c.out().close();
        };
        readers.add(writers);
        Parallel.run(readers.toArray(new CSProcess[0]));
        for (int i = 0; i < written.length(); i++) {
            assertEquals(written.get(i), readCount.get(i), "value " + i + " written " + written.get(i) + " times");
        }
    }

    /** Reads until the end, checking each writer's order; then once more, which must be the end again. */
    @Pausable
    private static void read(SharedAltingChannelInput<Integer> in, boolean selecting, AtomicIntegerArray count) {
        int[] last = new int[WRITERS];
        java.util.Arrays.fill(last, -1);
        Alternative alt = new Alternative(in, Guards.timeout(java.time.Duration.ofMillis(1)));
        try {
            for (;;) {
                if (selecting && alt.priSelect() != 0) {
                    continue; // the timeout: choose again
                }
                int v = in.read();
                int writer = v / VALUES;
                int k = v % VALUES;
                assertTrue(k > last[writer], "writer " + writer + "'s value " + k + " after its " + last[writer]);
                last[writer] = k;
                count.incrementAndGet(v);
            }
        } catch (ChannelClosedException end) {
            try {
                int late = in.read();
                throw new AssertionError("read " + late + " after the end");
            } catch (ChannelClosedException stillTheEnd) {
                // as it must be
            }
        }
    }

    /** Writes this writer's values in order, through a select or plainly. */
    @Pausable
    private static void write(SharedAltingChannelOutput<Integer> out, int writer, boolean selecting,
            AtomicIntegerArray written) {
        Alternative alt = new Alternative(out, Guards.timeout(java.time.Duration.ofMillis(1)));
        for (int k = 0; k < VALUES; k++) {
            int v = writer * VALUES + k;
            while (selecting && alt.priSelect() != 0) {
                Fiber.yield(); // the timeout: choose again
            }
            out.write(v);
            written.incrementAndGet(v);
        }
    }
}
