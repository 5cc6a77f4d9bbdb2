package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ChannelOutput#close()}: later writes throw, the reader drains what was written before, then sees the
 * end; {@link ChannelInput#forEach} loops to it. Each case on one worker, then many times on two.
 */
class CloseTest {
    private static final int ITERATIONS = Integer.getInteger("weft.closeTest.iterations", 50);

    /** Expects {@code op} to throw {@link ChannelClosedException}. */
    @Pausable
    private static void assertClosed(CSProcess op) {
        try {
            op.run();
        } catch (ChannelClosedException expected) {
            assertInstanceOf(PoisonException.class, expected, "poison handlers see the end too");
            return;
        }
        fail("expected ChannelClosedException");
    }

    @Test
    @Timeout(60)
    void theReaderDrainsBufferedValuesThenSeesTheEnd() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one(4);
            c.out().write(1);
            c.out().write(2);
            c.out().write(3);
            c.out().close();
            c.out().close(); // twice is harmless
            assertClosed(() -> c.out().write(4));
            assertEquals(1, c.in().read());
            List<Integer> rest = new ArrayList<>();
            c.in().forEach(v -> rest.add(v));
            assertEquals(List.of(2, 3), rest);
            assertClosed(() -> c.in().read());
            assertTrue(new Alternative(c.in()).selectNow() == 0, "a closed input is ready");
        }));
    }

    @Test
    @Timeout(60)
    void aWriterWaitingWhenTheChannelClosesIsStillRead() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            Any2OneChannel<String> c = Channel.any2one();
            Fiber writer = Weft.spawn(() -> c.out().write("before the close"));
            Schedulers.awaitParked(writer);
            c.out().close();
            assertEquals("before the close", c.in().read());
            writer.join(); // its write completed
            assertClosed(() -> c.in().read());
        }));
    }

    @Test
    @Timeout(60)
    void waitingReadersAndAlternativesSeeTheEnd() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2AnyChannel<Integer> c = Channel.one2any();
            AtomicInteger ended = new AtomicInteger();
            Fiber r1 = Weft.spawn(() -> assertClosedAndCount(() -> c.in().read(), ended));
            Fiber r2 = Weft.spawn(() -> assertClosedAndCount(() -> c.in().read(), ended));
            One2OneChannel<Integer> d = Channel.one2one();
            Fiber alt = Weft.spawn(() -> {
                assertEquals(0, new Alternative(d.in()).select());
                assertClosedAndCount(() -> d.in().read(), ended);
            });
            Schedulers.awaitParked(r1);
            Schedulers.awaitParked(r2);
            Schedulers.awaitParked(alt);
            c.out().close();
            d.out().close();
            r1.join();
            r2.join();
            alt.join();
            assertEquals(3, ended.get());
        }));
    }

    @Pausable
    private static void assertClosedAndCount(CSProcess op, AtomicInteger ended) {
        assertClosed(op);
        ended.incrementAndGet();
    }

    @Test
    @Timeout(60)
    void aClosedOutputIsAReadyGuardWhoseWriteThrows() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Fiber w = Weft.spawn(() -> {
                assertEquals(0, new Alternative(c.out()).select());
                assertClosed(() -> c.out().write(1));
            });
            Schedulers.awaitParked(w);
            c.out().close();
            w.join();
        }));
    }

    @Test
    @Timeout(60)
    void poisonStaysImmediateAfterAClose() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one(4);
            c.out().write(1);
            c.out().close();
            c.in().poison(); // discards the buffered value
            try {
                c.in().read();
                fail("a poisoned channel gave a value");
            } catch (ChannelClosedException wrong) {
                fail("poison came after the close: the read must say poisoned, not closed");
            } catch (PoisonException expected) {
                // poisoned
            }
            One2OneChannel<Integer> p = Channel.one2one();
            p.out().poison();
            p.out().close(); // a poisoned channel stays poisoned
            try {
                p.out().write(1);
                fail("a poisoned channel took a value");
            } catch (ChannelClosedException wrong) {
                fail("closing a poisoned channel changed it");
            } catch (PoisonException expected) {
                // poisoned
            }
        }));
    }

    /**
     * Writers race a close: every write that returned normally is read exactly once, in each writer's order, and
     * no write that threw delivered anything; the reader ends at the close.
     */
    @Test
    @Timeout(120)
    void closeRacingWritersLosesAndDuplicatesNothing() {
        for (int capacity : new int[] {0, 3}) {
            Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> raceClose(capacity)));
        }
    }

    @Pausable
    private static void raceClose(int capacity) {
        int writers = 4;
        Any2OneChannel<int[]> c = Channel.any2one(capacity);
        AtomicIntegerArray written = new AtomicIntegerArray(writers);
        int[] nextSeen = new int[writers];
        AtomicReference<Throwable> wrong = new AtomicReference<>();
        CSProcess[] ps = new CSProcess[writers + 2];
        for (int w = 0; w < writers; w++) {
            int me = w;
            ps[w] = () -> writeUntilClosed(c.out(), me, written);
        }
        ps[writers] = () -> {
            for (int i = 0; i < 50; i++) {
                Fiber.yield();
            }
            c.out().close();
        };
        ps[writers + 1] = () -> c.in().forEach(v -> {
            if (v[1] != nextSeen[v[0]]++) {
                wrong.compareAndSet(null, new AssertionError("writer " + v[0] + ": got " + v[1]));
            }
        });
        Parallel.run(ps);
        if (wrong.get() != null) {
            throw new AssertionError(wrong.get());
        }
        for (int w = 0; w < writers; w++) {
            assertEquals(written.get(w), nextSeen[w], "writer " + w + ": values whose write returned were read");
        }
    }

    /**
     * Writers and readers race a close on an any2any channel: every value whose write returned is read exactly
     * once, each reader sees each writer's values in order, and every reader ends.
     */
    @Test
    @Timeout(120)
    void closeRacingWritersAndReadersLosesAndDuplicatesNothing() {
        for (int capacity : new int[] {0, 5}) {
            Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
                int writers = 3;
                int readers = 3;
                Any2AnyChannel<int[]> c = Channel.any2any(capacity);
                AtomicIntegerArray written = new AtomicIntegerArray(writers);
                java.util.concurrent.ConcurrentHashMap<Long, Boolean> seen = new java.util.concurrent.ConcurrentHashMap<>();
                AtomicReference<Throwable> wrong = new AtomicReference<>();
                CSProcess[] ps = new CSProcess[writers + readers + 1];
                for (int w = 0; w < writers; w++) {
                    int me = w;
                    ps[w] = () -> writeUntilClosed(c.out(), me, written);
                }
                for (int r = 0; r < readers; r++) {
                    ps[writers + r] = () -> {
                        int[] last = {-1, -1, -1};
                        c.in().forEach(v -> {
                            if (v[1] <= last[v[0]] || seen.put(((long) v[0] << 32) | v[1], true) != null) {
                                wrong.compareAndSet(null, new AssertionError("writer " + v[0] + ": " + v[1]
                                        + " out of order or twice"));
                            }
                            last[v[0]] = v[1];
                        });
                    };
                }
                ps[writers + readers] = () -> {
                    for (int i = 0; i < 60; i++) {
                        Fiber.yield();
                    }
                    c.out().close();
                };
                Parallel.run(ps);
                if (wrong.get() != null) {
                    throw new AssertionError(wrong.get());
                }
                int total = 0;
                for (int w = 0; w < writers; w++) {
                    total += written.get(w);
                }
                assertEquals(total, seen.size(), "every value whose write returned was read");
            }));
        }
    }

    /** Writes (writer, 0), (writer, 1)... until the channel closes, counting the writes that returned. */
    @Pausable
    private static void writeUntilClosed(ChannelOutput<int[]> out, int writer, AtomicIntegerArray written) {
        try {
            for (int i = 0; ; i++) {
                out.write(new int[] {writer, i});
                written.set(writer, i + 1);
            }
        } catch (ChannelClosedException end) {
            // closed under it
        }
    }

    @Test
    @Timeout(60)
    void aPlainThreadReadsToTheEnd() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            Any2AnyChannel<Integer> c = Channel.any2any(2);
            Fiber producer = Weft.spawn(s, () -> {
                for (int i = 0; i < 1000; i++) {
                    c.out().write(i);
                }
                c.out().close();
            });
            AtomicInteger sum = new AtomicInteger();
            c.in().forEach(v -> sum.addAndGet(v));
            assertEquals(999 * 1000 / 2, sum.get());
            producer.join();
        }
    }
}
