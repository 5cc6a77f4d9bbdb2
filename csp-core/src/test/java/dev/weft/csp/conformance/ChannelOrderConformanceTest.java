package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2AnyChannel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ordering and exactly-once delivery on synchronous and buffered channels of every kind: FIFO of one writer,
 * each writer's order under many writers and readers, arrival order of queued writers and readers, and many
 * fibers on one channel (the behaviours Go's chan tests and Kotlin's channel tests check).
 */
class ChannelOrderConformanceTest {

    /** Buffers under test: synchronous (null), 1, 10, unbounded. */
    private static List<Supplier<ChannelBuffer<Integer>>> buffers() {
        return List.of(() -> null, () -> ChannelBuffer.fixed(1), () -> ChannelBuffer.fixed(10),
                ChannelBuffer::unbounded);
    }

    @Test
    @Timeout(30)
    void oneWritersValuesArriveInFifoOrderOnEveryKind() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            for (Supplier<ChannelBuffer<Integer>> b : buffers()) {
                for (Ends<Integer> ch : Ends.allKinds(b)) {
                    List<Integer> got = new ArrayList<>();
                    Weft.run(s, () -> {
                        Weft.spawn(() -> {
                            for (int i = 0; i < 100; i++) {
                                ch.out.write(i);
                            }
                        });
                        for (int i = 0; i < 100; i++) {
                            got.add(ch.in.read());
                        }
                    });
                    for (int i = 0; i < 100; i++) {
                        assertEquals(i, got.get(i), ch + " " + got);
                    }
                }
            }
        });
    }

    /** Go's TestMultiConsumer, with order checked too: many writers, many readers, each value exactly once. */
    @Test
    @Timeout(30)
    void manyWritersAndReadersKeepEachWritersOrderAndLoseNothing() {
        int writers = 5;
        int readers = 5;
        int perWriter = 2_000;
        Schedulers.onOneAndTwoWorkers(5, s -> {
            for (Supplier<ChannelBuffer<Integer>> b : buffers()) {
                Ends<Integer> ch = Ends.any2any(b.get());
                AtomicIntegerArray seen = new AtomicIntegerArray(writers * perWriter);
                AtomicReference<String> problem = new AtomicReference<>();
                Weft.run(s, () -> {
                    List<Fiber> ws = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        int id = w;
                        ws.add(Weft.spawn(() -> {
                            for (int i = 0; i < perWriter; i++) {
                                ch.out.write(id * perWriter + i);
                            }
                        }));
                    }
                    List<Fiber> rs = new ArrayList<>();
                    for (int r = 0; r < readers; r++) {
                        rs.add(Weft.spawn(() -> {
                            int[] last = new int[writers];
                            java.util.Arrays.fill(last, -1);
                            try {
                                for (;;) {
                                    int v = ch.in.read();
                                    int w = v / perWriter;
                                    if (v % perWriter <= last[w]) {
                                        problem.compareAndSet(null, "reader saw " + v + " after " + last[w]);
                                    }
                                    last[w] = v % perWriter;
                                    if (seen.incrementAndGet(v) != 1) {
                                        problem.compareAndSet(null, v + " read twice");
                                    }
                                }
                            } catch (dev.weft.csp.ChannelClosedException end) {
                                // every value has been read
                            }
                        }));
                    }
                    for (Fiber w : ws) {
                        w.join();
                    }
                    ch.out.close();
                    for (Fiber r : rs) {
                        r.join();
                    }
                });
                assertNull(problem.get(), ch + " " + b.get());
                for (int v = 0; v < writers * perWriter; v++) {
                    assertEquals(1, seen.get(v), "value " + v);
                }
            }
        });
    }

    /** Writers queued on a shared output are served in the order they arrived (Kotlin's and JCSP's FIFO). */
    @Test
    @Timeout(10)
    void queuedWritersAreServedInArrivalOrder() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (int capacity : new int[] {0, 2}) {
                Any2OneChannel<Integer> ch = Channel.any2one(capacity);
                List<Integer> got = new ArrayList<>();
                Weft.run(s, () -> {
                    for (int i = 0; i < capacity; i++) {
                        ch.out().write(-1 - i); // fills the buffer
                    }
                    for (int w = 0; w < 5; w++) {
                        int id = w;
                        Schedulers.awaitParked(Weft.spawn(() -> ch.out().write(id)));
                    }
                    for (int i = 0; i < capacity + 5; i++) {
                        got.add(ch.in().read());
                    }
                });
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < capacity; i++) {
                    expected.add(-1 - i);
                }
                expected.addAll(List.of(0, 1, 2, 3, 4));
                assertEquals(expected, got, "capacity " + capacity);
            }
        }
    }

    /** Readers queued on a shared input are served in the order they arrived. */
    @Test
    @Timeout(10)
    void queuedReadersAreServedInArrivalOrder() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (int capacity : new int[] {0, 2}) {
                One2AnyChannel<Integer> ch = Channel.one2any(capacity);
                int[] got = new int[5];
                Weft.run(s, () -> {
                    List<Fiber> rs = new ArrayList<>();
                    for (int r = 0; r < 5; r++) {
                        int id = r;
                        Fiber f = Weft.spawn(() -> got[id] = ch.in().read());
                        Schedulers.awaitParked(f);
                        rs.add(f);
                    }
                    for (int i = 0; i < 5; i++) {
                        ch.out().write(i * 10);
                    }
                    for (Fiber f : rs) {
                        f.join();
                    }
                });
                assertEquals(List.of(0, 10, 20, 30, 40), List.of(got[0], got[1], got[2], got[3], got[4]),
                        "capacity " + capacity);
            }
        }
    }

    @Test
    @Timeout(10)
    void writingNullThrowsAndDeliversNothing() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (Supplier<ChannelBuffer<Integer>> b : buffers()) {
                for (Ends<Integer> ch : Ends.allKinds(b)) {
                    Weft.run(s, () -> {
                        Conformance.expect(NullPointerException.class, () -> ch.out.write(null));
                        assertFalse(ch.in.pending(), ch + ": the null left nothing behind");
                        Weft.spawn(() -> ch.out.write(7));
                        assertEquals(7, ch.in.read());
                    });
                }
            }
        }
    }

    /** Values pass by reference: the reader gets the very object written. */
    @Test
    @Timeout(10)
    void valuesPassByReference() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (int capacity : new int[] {0, 3}) {
                One2OneChannel<int[]> ch = Channel.one2one(capacity);
                int[] sent = {1, 2, 3};
                Weft.run(s, () -> {
                    Weft.spawn(() -> ch.out().write(sent));
                    assertTrue(ch.in().read() == sent);
                });
            }
        }
    }

    /** 100,000 fibers write to one channel, 100,000 read another: every value once (Go's goroutines test). */
    @Test
    @Timeout(60)
    void aHundredThousandFibersOnOneChannel() {
        int n = 100_000;
        Schedulers.onOneAndTwoWorkers(1, s -> {
            Any2OneChannel<Integer> fanIn = Channel.any2one();
            One2AnyChannel<Integer> fanOut = Channel.one2any();
            AtomicLong sum = new AtomicLong();
            AtomicInteger reads = new AtomicInteger();
            Weft.run(s, () -> {
                for (int i = 0; i < n; i++) {
                    int v = i;
                    Weft.spawn(() -> fanIn.out().write(v));
                    Weft.spawn(() -> {
                        sum.addAndGet(fanOut.in().read());
                        reads.incrementAndGet();
                    });
                }
                long total = 0;
                for (int i = 0; i < n; i++) {
                    int v = fanIn.in().read();
                    total += v;
                    fanOut.out().write(v);
                }
                assertEquals((long) n * (n - 1) / 2, total);
            });
            assertEquals(n, reads.get());
            assertEquals((long) n * (n - 1) / 2, sum.get());
        });
    }

    /** A daisy chain of 10,000 fibers, each adding one (Go's goroutines and Rob Pike's whispers). */
    @Test
    @Timeout(30)
    void aDaisyChainOfTenThousandFibers() {
        Schedulers.onOneAndTwoWorkers(3, s -> {
            int n = 10_000;
            int[] result = new int[1];
            Weft.run(s, () -> {
                One2OneChannel<Integer> first = Channel.one2one();
                One2OneChannel<Integer> left = first;
                for (int i = 0; i < n; i++) {
                    One2OneChannel<Integer> from = left;
                    One2OneChannel<Integer> to = Channel.one2one();
                    Weft.spawn(() -> to.out().write(1 + from.in().read()));
                    left = to;
                }
                One2OneChannel<Integer> last = left;
                Parallel.run(() -> first.out().write(0), () -> result[0] = last.in().read());
            });
            assertEquals(n, result[0]);
        });
    }

    /** Go's fifo test: a chain of fibers, each releasing the next, keeps the order of the values they send. */
    @Test
    @Timeout(30)
    void chainedWritersKeepTheirTurn() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            int n = 100;
            List<Integer> got = new ArrayList<>();
            Weft.run(s, () -> {
                Any2OneChannel<Integer> out = Channel.any2one();
                One2OneChannel<Boolean> start = Channel.one2one();
                One2OneChannel<Boolean> in = start;
                for (int i = 0; i < n; i++) {
                    int v = i;
                    One2OneChannel<Boolean> mine = in;
                    One2OneChannel<Boolean> next = Channel.one2one();
                    Weft.spawn(() -> {
                        mine.in().read();
                        out.out().write(v);
                        next.out().write(true);
                    });
                    in = next;
                }
                One2OneChannel<Boolean> end = in;
                Weft.spawn(() -> start.out().write(true));
                for (int i = 0; i < n; i++) {
                    got.add(out.in().read());
                }
                end.in().read();
            });
            for (int i = 0; i < n; i++) {
                assertEquals(i, got.get(i));
            }
        });
    }

    /** Kotlin's "send to a full buffer suspends": the writer waits, the first read lets it in behind the rest. */
    @Test
    @Timeout(10)
    void aWriterToAFullBufferWaitsItsTurn() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one(2);
            List<Integer> got = new ArrayList<>();
            Weft.run(s, () -> {
                ch.out().write(1);
                ch.out().write(2);
                Fiber w = Weft.spawn(() -> ch.out().write(3));
                Schedulers.awaitParked(w);
                assertFalse(w.isDone());
                got.add(ch.in().read());
                got.add(ch.in().read());
                got.add(ch.in().read());
                w.join();
                assertFalse(ch.in().pending());
            });
            assertEquals(List.of(1, 2, 3), got);
        }
    }

    /** An unbounded buffer never makes a writer wait. */
    @Test
    @Timeout(10)
    void anUnboundedBufferNeverBlocksAWriter() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one(ChannelBuffer.unbounded());
            Weft.run(s, () -> {
                for (int i = 0; i < 100_000; i++) {
                    ch.out().write(i);
                }
                assertEquals(0, new dev.weft.csp.Alternative(ch.out()).selectNow(), "room, always");
                for (int i = 0; i < 100_000; i++) {
                    assertEquals(i, ch.in().read());
                }
            });
        }
    }

    /** A channel of capacity n accepts exactly n writes without a reader. */
    @Test
    @Timeout(10)
    void aFixedBufferHoldsExactlyItsCapacity() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (int n : new int[] {0, 1, 5}) {
                One2OneChannel<Integer> ch = Channel.one2one(n);
                Weft.run(s, () -> {
                    dev.weft.csp.Alternative room = new dev.weft.csp.Alternative(ch.out());
                    for (int i = 0; i < n; i++) {
                        assertEquals(0, room.selectNow(), "room for value " + i + " of " + n);
                        ch.out().write(i);
                    }
                    assertEquals(-1, room.selectNow(), "full at " + n);
                    ch.in().poison();
                    Conformance.expect(PoisonException.class, () -> ch.in().read());
                });
            }
        }
    }

    /** Misuse is refused with a message: a buffer given twice, a negative capacity, two readers of one end. */
    @Test
    @Timeout(10)
    void misuseIsRefused() {
        ChannelBuffer<Integer> b = ChannelBuffer.fixed(2);
        Channel.one2one(b);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Channel.any2any(b));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Channel.one2one(-1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ChannelBuffer.overwritingOldest(0));
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Fiber first = Weft.spawn(() -> c.in().read());
            Schedulers.awaitParked(first);
            IllegalStateException e = Conformance.expect(IllegalStateException.class, () -> c.in().read());
            assertTrue(e.getMessage().contains("two processes"), e.getMessage());
            c.out().write(1); // the first reader is still served
            first.join();
            Fiber writer = Weft.spawn(() -> c.out().write(2));
            Schedulers.awaitParked(writer);
            Conformance.expect(IllegalStateException.class, () -> c.out().write(3));
            assertEquals(2, c.in().read());
            writer.join();
        }));
    }
}
