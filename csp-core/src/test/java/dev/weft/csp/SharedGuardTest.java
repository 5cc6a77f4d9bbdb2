package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shared ends as guards: several alternatives (and plain parties) on one shared input or output at once, each
 * value exchanged exactly once. Each case on one worker, then many times on two.
 */
class SharedGuardTest {
    private static final int ITERATIONS = Integer.getInteger("weft.sharedGuardTest.iterations", 30);
    private static final int VALUES = 2_000;

    /**
     * Two selecting readers and a plain one share an any2any input; three writers, one of them selecting; the
     * close after the last write ends every reader.
     */
    @Test
    @Timeout(120)
    void sharedInputAndOutputAsGuardsExchangeEachValueOnce() {
        for (int capacity : new int[] {0, 4}) {
            Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
                Any2AnyChannel<Integer> c = Channel.any2any(capacity);
                One2OneChannel<Integer> other = Channel.one2one(); // never written: the other guard of each select
                AtomicIntegerArray seen = new AtomicIntegerArray(3 * VALUES);
                CSProcess selectingReader = () -> {
                    try {
                        for (;;) {
                            new Select()
                                    .read(c.in(), v -> seen.incrementAndGet(v))
                                    .read(other.in(), v -> { })
                                    .run();
                        }
                    } catch (ChannelClosedException end) {
                        // every value was read
                    }
                };
                CSProcess plainReader = () -> c.in().forEach(v -> seen.incrementAndGet(v));
                CSProcess writers = () -> {
                    Parallel.run(
                            () -> writeRange(c.out(), 0, false),
                            () -> writeRange(c.out(), VALUES, false),
                            () -> writeRange(c.out(), 2 * VALUES, true));
                    c.out().close(); // ends the readers once they have read everything
                };
                Parallel.run(selectingReader, selectingReader, plainReader, writers);
                for (int i = 0; i < seen.length(); i++) {
                    assertEquals(1, seen.get(i), "value " + i);
                }
            }));
        }
    }

    @Pausable
    private static void writeRange(SharedAltingChannelOutput<Integer> out, int from, boolean selecting) {
        One2OneChannel<Integer> never = Channel.one2one();
        for (int i = from; i < from + VALUES; i++) {
            if (selecting) {
                new Select().write(out, i).read(never.in(), v -> { }).run();
            } else {
                out.write(i);
            }
        }
    }

    /** Plain threads selecting on a shared input beside fibers reading it plainly. */
    @Test
    @Timeout(60)
    void plainThreadsSelectOnASharedInput() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            One2AnyChannel<Integer> c = Channel.one2any(2);
            AtomicIntegerArray seen = new AtomicIntegerArray(VALUES);
            One2OneChannel<Integer> never = Channel.one2one();
            Runnable selecting = () -> {
                try {
                    for (;;) {
                        new Select().read(never.in(), v -> { }).read(c.in(), v -> seen.incrementAndGet(v)).run();
                    }
                } catch (ChannelClosedException end) {
                    // all read
                }
            };
            Thread t1 = new Thread(selecting);
            Thread t2 = new Thread(selecting);
            t1.start();
            t2.start();
            Fiber plain = Weft.spawn(s, () -> c.in().forEach(v -> seen.incrementAndGet(v)));
            for (int i = 0; i < VALUES; i++) {
                c.out().write(i);
            }
            c.out().close();
            t1.join();
            t2.join();
            plain.join();
            for (int i = 0; i < VALUES; i++) {
                assertEquals(1, seen.get(i), "value " + i);
            }
        }
    }

    /** An any2one output as a guard of several writers' alternatives at once, the reader plain. */
    @Test
    @Timeout(60)
    void alternativesOnAnAny2OneOutput() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            Any2OneChannel<Integer> c = Channel.any2one();
            int writers = 4;
            CSProcess[] ps = new CSProcess[writers + 1];
            for (int w = 0; w < writers; w++) {
                int me = w;
                ps[w] = () -> {
                    Alternative alt = new Alternative(c.out());
                    for (int i = 0; i < 500; i++) {
                        alt.select();
                        c.out().write(me);
                    }
                };
            }
            int[] counts = new int[writers];
            ps[writers] = () -> {
                for (int i = 0; i < writers * 500; i++) {
                    counts[c.in().read()]++;
                }
            };
            Parallel.run(ps);
            for (int w = 0; w < writers; w++) {
                assertEquals(500, counts[w], "writer " + w);
            }
        }));
    }
}
