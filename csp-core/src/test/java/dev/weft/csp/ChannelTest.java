package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.FiberLifecycle;
import dev.weft.csp.internal.FiberProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ChannelTest {
    private static final int WRITERS = 8;

    @Test
    @Timeout(60)
    void any2oneKeepsEveryValueAndEachWritersOrder() {
        try (Scheduler one = Scheduler.singleThreaded()) {
            fanIn(one, Channel::any2one, 100_000);
            fanIn(one, () -> Channel.any2one(16), 100_000);
        }
        try (Scheduler two = Scheduler.create(2)) {
            for (int i = 0; i < 10; i++) {
                fanIn(two, Channel::any2one, 10_000);
                fanIn(two, () -> Channel.any2any(3), 10_000);
            }
        }
    }

    /** A fiber queued on a channel is woken by the channel only: a stray unpark() must not resume its read. */
    @Test
    @Timeout(30)
    void strayUnparkLeavesAQueuedReaderAlone() {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = Scheduler.create(workers)) {
                for (int round = 0; round < 200; round++) {
                    One2OneChannel<String> ch = Channel.one2one();
                    AtomicReference<String> got = new AtomicReference<>();
                    Fiber reader = FiberLifecycle.start(() -> got.set(ch.in().read()), s.pool, null);
                    while (!FiberProbe.isParked(reader)) {
                        Thread.onSpinWait();
                    }
                    reader.unpark();
                    ch.out().write("value " + round);
                    reader.join();
                    assertEquals("value " + round, got.get());
                }
            }
        }
    }

    /**
     * The same for a plain thread's read: an unpark() given before (or during) the read is the thread's own
     * wake-up for a later park(), not the channel's. Taking it as the channel's would return from the read
     * with nothing while the thread stays queued, and the writer's value would go to a reader that left.
     */
    @Test
    @Timeout(60)
    void strayUnparkLeavesAThreadsReadAlone() throws Exception {
        for (int round = 0; round < 200; round++) {
            One2OneChannel<String> ch = Channel.one2one();
            AtomicReference<Fiber> readerFiber = new AtomicReference<>();
            AtomicReference<Object> got = new AtomicReference<>();
            boolean early = round % 2 == 0;
            Thread reader = new Thread(() -> {
                Fiber me = Fiber.current();
                readerFiber.set(me);
                if (early) {
                    me.unpark(); // before the read: the read must still wait for the writer
                }
                got.set(ch.in().read());
                Fiber.park(); // the unpark was kept for this park: it returns at once
            });
            reader.start();
            if (!early) {
                while (reader.getState() != Thread.State.WAITING) { // blocked in the read
                    Thread.onSpinWait();
                }
                readerFiber.get().unpark();
            }
            ch.out().write("value " + round);
            reader.join();
            assertEquals("value " + round, got.get());
        }
    }

    /** WRITERS writers send (writer, seq) pairs; the reader checks exactly-once and per-writer order. */
    @SuppressWarnings("unchecked")
    private static void fanIn(Scheduler s, Supplier<Object> make, int perWriter) {
        Object ch = make.get();
        ChannelOutput<long[]> out = ch instanceof Any2OneChannel
                ? ((Any2OneChannel<long[]>) ch).out() : ((Any2AnyChannel<long[]>) ch).out();
        ChannelInput<long[]> in = ch instanceof Any2OneChannel
                ? ((Any2OneChannel<long[]>) ch).in() : ((Any2AnyChannel<long[]>) ch).in();
        long[] next = new long[WRITERS];
        AtomicReference<String> problem = new AtomicReference<>();
        Weft.run(s, () -> {
            for (int w = 0; w < WRITERS; w++) {
                int id = w;
                Weft.spawn(() -> {
                    for (int i = 0; i < perWriter; i++) {
                        out.write(new long[] {id, i});
                    }
                });
            }
            for (long i = 0; i < (long) WRITERS * perWriter; i++) {
                long[] v = in.read();
                if (v[1] != next[(int) v[0]]) {
                    problem.compareAndSet(null, "writer " + v[0] + " sent " + v[1] + ", expected " + next[(int) v[0]]);
                }
                next[(int) v[0]] = v[1] + 1;
            }
        });
        assertEquals(null, problem.get());
        for (long n : next) {
            assertEquals(perWriter, n);
        }
    }

    @Test
    @Timeout(30)
    void one2anyServesEveryReaderAndLosesNothing() {
        try (Scheduler s = Scheduler.create(2)) {
            One2AnyChannel<Integer> ch = Channel.one2any();
            AtomicInteger sum = new AtomicInteger();
            AtomicInteger count = new AtomicInteger();
            Weft.run(s, () -> {
                for (int r = 0; r < 4; r++) {
                    Weft.spawn(() -> {
                        try {
                            for (;;) {
                                sum.addAndGet(ch.in().read());
                                count.incrementAndGet();
                            }
                        } catch (PoisonException e) {
                            // the writer is done
                        }
                    });
                }
                for (int i = 1; i <= 10_000; i++) {
                    ch.out().write(i);
                }
                ch.out().poison();
            });
            assertEquals(10_000, count.get());
            assertEquals(10_000 * 10_001 / 2, sum.get());
        }
    }

    @Test
    @Timeout(10)
    void aSynchronousWriteReturnsOnlyOnceTheReaderHasTheValue() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (Supplier<ChannelPair<Integer>> kind : kinds()) {
                ChannelPair<Integer> ch = kind.get();
                List<String> log = new ArrayList<>();
                Weft.run(s, () -> {
                    Weft.spawn(() -> {
                        ch.out.write(1);
                        log.add("written");
                    });
                    Timer.sleep(java.time.Duration.ofMillis(1)); // on one worker: the writer is waiting now
                    log.add("reading");
                    log.add("read " + ch.in.read());
                });
                assertEquals(List.of("reading", "read 1", "written"), log);
            }
        }
    }

    @Test
    @Timeout(10)
    void bufferedWritesCompleteWithoutAReader() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one(3);
            List<Integer> got = new ArrayList<>();
            Weft.run(s, () -> {
                for (int i = 0; i < 3; i++) {
                    ch.out().write(i); // never waits: the buffer has room
                }
                assertTrue(ch.in().pending());
                boolean[] writing = new boolean[1];
                Fiber writer = Weft.spawn(() -> {
                    writing[0] = true;
                    ch.out().write(3); // the buffer is full: waits for room
                });
                Fiber.yield(); // one carrier: the writer runs now, up to its wait
                assertTrue(writing[0] && !writer.isDone(), "the writer is blocked in write before the first read");
                for (int i = 0; i < 4; i++) {
                    got.add(ch.in().read()); // the first read moves the waiting writer's value into the buffer
                }
                assertFalse(ch.in().pending());
                writer.join();
            });
            assertEquals(List.of(0, 1, 2, 3), got);
        }
    }

    @Test
    @Timeout(10)
    void overwritingOldestKeepsTheNewest() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one(ChannelBuffer.overwritingOldest(2));
            int[] got = new int[2];
            Weft.run(s, () -> {
                for (int i = 1; i <= 5; i++) {
                    ch.out().write(i);
                }
                got[0] = ch.in().read();
                got[1] = ch.in().read();
            });
            assertArrayEquals(new int[] {4, 5}, got);
        }
    }

    @Test
    @Timeout(10)
    void unboundedNeverBlocksWriters() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Any2OneChannel<Integer> ch = Channel.any2one(ChannelBuffer.unbounded());
            long[] sum = new long[1];
            Weft.run(s, () -> {
                for (int i = 1; i <= 100_000; i++) {
                    ch.out().write(i);
                }
                for (int i = 1; i <= 100_000; i++) {
                    sum[0] += ch.in().read();
                }
            });
            assertEquals(100_000L * 100_001 / 2, sum[0]);
        }
    }

    @Test
    @Timeout(10)
    void poisonReachesBlockedAndLaterReadersAndWriters() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (Supplier<ChannelPair<Integer>> kind : kinds()) {
                ChannelPair<Integer> ch = kind.get();
                AtomicInteger poisoned = new AtomicInteger();
                Weft.run(s, () -> {
                    Fiber blocked = Weft.spawn(() -> {
                        try {
                            ch.in.read();
                        } catch (PoisonException e) {
                            poisoned.incrementAndGet();
                        }
                    });
                    Timer.sleep(java.time.Duration.ofMillis(1)); // the reader is blocked now
                    ch.out.poison();
                    blocked.join();
                    try {
                        ch.in.read();
                    } catch (PoisonException e) {
                        poisoned.incrementAndGet();
                    }
                    try {
                        ch.out.write(1);
                    } catch (PoisonException e) {
                        poisoned.incrementAndGet();
                    }
                    ch.in.poison(); // twice is harmless
                });
                assertEquals(3, poisoned.get());
            }
        }
    }

    @Test
    @Timeout(10)
    void poisonDiscardsBufferedValues() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one(4);
            Weft.run(s, () -> {
                ch.out().write(1);
                ch.out().poison();
                try {
                    ch.in().read();
                    throw new AssertionError("read a discarded value");
                } catch (PoisonException expected) {
                    // values still buffered are discarded
                }
            });
        }
    }

    @Test
    @Timeout(10)
    void fibersAndThreadsTalk() throws Exception {
        One2OneChannel<Integer> toThread = Channel.one2one();
        Any2OneChannel<Integer> toFiber = Channel.any2one();
        long[] got = new long[1];
        Thread t = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                toFiber.out().write(toThread.in().read() + 1);
            }
        });
        t.start();
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                for (int i = 0; i < 1000; i++) {
                    toThread.out().write(i);
                    got[0] += toFiber.in().read();
                }
            });
        }
        t.join(5_000);
        assertEquals(1000L * 1001 / 2, got[0]);
    }

    @Test
    @Timeout(10)
    void badUseGetsAClearError() {
        assertThrows(IllegalArgumentException.class, () -> Channel.one2one(-1));
        assertThrows(IllegalArgumentException.class, () -> Channel.any2any(-5));
        assertThrows(IllegalArgumentException.class, () -> ChannelBuffer.overwritingOldest(0));
        ChannelBuffer<Integer> b = ChannelBuffer.fixed(2);
        Channel.one2one(b);
        assertThrows(IllegalArgumentException.class, () -> Channel.any2one(b));
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (Supplier<ChannelPair<Integer>> kind : kinds()) {
                ChannelPair<Integer> ch = kind.get();
                AtomicReference<Throwable> npe = new AtomicReference<>();
                Weft.run(s, () -> {
                    try {
                        ch.out.write(null);
                    } catch (NullPointerException e) {
                        npe.set(e);
                    }
                });
                assertTrue(npe.get() != null && npe.get().getMessage().contains("null"));
            }
            for (Supplier<One2OneChannel<Integer>> single : List.<Supplier<One2OneChannel<Integer>>>of(
                    Channel::one2one, () -> Channel.one2one(1))) {
                One2OneChannel<Integer> ch = single.get();
                AtomicReference<Throwable> second = new AtomicReference<>();
                Weft.run(s, () -> {
                    Weft.spawn(() -> {
                        try {
                            ch.in().read();
                        } catch (PoisonException e) {
                            // released at the end
                        }
                    });
                    Timer.sleep(java.time.Duration.ofMillis(1)); // the first reader waits now
                    try {
                        ch.in().read();
                    } catch (IllegalStateException e) {
                        second.set(e);
                    }
                    ch.in().poison();
                });
                assertTrue(second.get() != null && second.get().getMessage().contains("read"), String.valueOf(second.get()));
            }
        }
    }

    /** Both ends of a channel, whatever its kind. */
    private record ChannelPair<T>(ChannelInput<T> in, ChannelOutput<T> out) {
    }

    private static List<Supplier<ChannelPair<Integer>>> kinds() {
        return List.of(
                () -> { One2OneChannel<Integer> c = Channel.one2one(); return new ChannelPair<>(c.in(), c.out()); },
                () -> { Any2OneChannel<Integer> c = Channel.any2one(); return new ChannelPair<>(c.in(), c.out()); },
                () -> { One2AnyChannel<Integer> c = Channel.one2any(); return new ChannelPair<>(c.in(), c.out()); },
                () -> { Any2AnyChannel<Integer> c = Channel.any2any(); return new ChannelPair<>(c.in(), c.out()); });
    }
}
