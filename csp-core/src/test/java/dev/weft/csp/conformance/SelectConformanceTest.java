package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.AltingChannelInput;
import dev.weft.csp.AltingChannelOutput;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Select;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Alternation as Go's select and JCSP's Alternative are used: self-select on both ends of one channel, input
 * guards meeting output guards across alternatives, every combination of plain and selecting readers and
 * writers, fairness, duplicate guards, and the non-blocking selectNow.
 */
class SelectConformanceTest {

    /**
     * Go's TestSelfSelect on a synchronous channel: two fibers each select over both ends of one channel. An
     * alternative never meets itself, so whatever one reads the other wrote.
     */
    @Test
    @Timeout(30)
    void selfSelectOnBothEndsOfOneChannel() {
        Schedulers.onOneAndTwoWorkers(10, SelectConformanceTest::selfSelect);
    }

    /**
     * The same on a buffered channel, as Go's TestSelfSelect also runs it, written as Go writes it: a
     * {@link Select} whose read and write are part of the choice. On a shared end the other fiber may take the
     * value or the room the choice saw; the select then chooses again rather than wait in an operation that,
     * after the other fiber's last choice, nobody would serve. (Each side hung about once in 2,500 runs before.)
     */
    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a select stuck in a committed operation ignores interrupts
    void selfSelectOnBothEndsOfOneBufferedChannel() {
        Schedulers.onOneAndTwoWorkers(1000, s -> {
            Any2AnyChannel<Integer> c = Channel.any2any(10);
            AtomicInteger writes = new AtomicInteger();
            AtomicInteger reads = new AtomicInteger();
            Weft.run(s, () -> {
                for (int p = 0; p < 2; p++) {
                    int me = p;
                    Weft.spawn(() -> {
                        for (int i = 0; i < 1000; i++) {
                            Select sel = new Select();
                            if (me == 0 || i % 2 == 0) {
                                sel.write(c.out(), me, writes::incrementAndGet).read(c.in(), v -> reads.incrementAndGet());
                            } else {
                                sel.read(c.in(), v -> reads.incrementAndGet()).write(c.out(), me, writes::incrementAndGet);
                            }
                            sel.run();
                        }
                    });
                }
            });
            assertEquals(2000, writes.get() + reads.get());
            assertTrue(reads.get() <= writes.get(), "read more than was written");
        });
    }

    /**
     * A select woken by a value on a shared buffered input that another reader takes before the select runs:
     * its read finds nothing, and it chooses again among what is ready now (here another channel's value),
     * where a plain read would wait for a value that never comes.
     */
    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a select stuck in a committed read ignores interrupts
    void aSelectWhoseValueAnotherReaderTookChoosesAgain() {
        onOneCarrier(() -> {
            Any2AnyChannel<Integer> c = Channel.any2any(1);
            One2OneChannel<Integer> d = Channel.one2one(1);
            AtomicReference<String> got = new AtomicReference<>();
            Fiber selecting = Weft.spawn(() -> new Select()
                    .read(c.in(), v -> got.set("c" + v))
                    .read(d.in(), v -> got.set("d" + v))
                    .run());
            Schedulers.awaitParked(selecting);
            c.out().write(1); // claims the waiting select for c, and wakes it
            assertEquals(1, c.in().read()); // taken before the select runs
            d.out().write(2);
            selecting.join();
            assertEquals("d2", got.get());
        });
    }

    /**
     * The write side of the same race: a select woken by room in a shared buffered output, which another writer
     * fills before the select runs. Its write finds no room, and it chooses again (here a read on another
     * channel), where a plain write would wait for a reader that never comes.
     */
    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a select stuck in a committed write ignores interrupts
    void aSelectWhoseRoomAnotherWriterTookChoosesAgain() {
        onOneCarrier(() -> {
            Any2AnyChannel<Integer> c = Channel.any2any(1);
            One2OneChannel<Integer> d = Channel.one2one(1);
            AtomicReference<String> got = new AtomicReference<>();
            c.out().write(1); // full
            Fiber selecting = Weft.spawn(() -> new Select()
                    .write(c.out(), 2, () -> got.set("c"))
                    .read(d.in(), v -> got.set("d" + v))
                    .run());
            Schedulers.awaitParked(selecting);
            assertEquals(1, c.in().read()); // frees the room: claims the waiting select for c, and wakes it
            c.out().write(3); // takes the room before the select runs
            d.out().write(4);
            selecting.join();
            assertEquals("d4", got.get());
            assertEquals(3, c.in().read());
            assertFalse(c.in().pending(), "the select wrote although it chose again");
        });
    }

    /**
     * The same on a synchronous shared output: a reader claims the waiting select's write as a promise, and
     * another writer serves that reader first. The promise goes back to the output with no reader behind it;
     * the select's write finds nobody, and it chooses again.
     */
    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a select stuck in a committed write ignores interrupts
    void aSelectWhoseReaderAnotherWriterServedChoosesAgain() {
        onOneCarrier(() -> {
            Any2AnyChannel<Integer> c = Channel.any2any();
            One2OneChannel<Integer> d = Channel.one2one(1);
            AtomicReference<String> got = new AtomicReference<>();
            Fiber selecting = Weft.spawn(() -> new Select()
                    .write(c.out(), 2, () -> got.set("c"))
                    .read(d.in(), v -> got.set("d" + v))
                    .run());
            Schedulers.awaitParked(selecting);
            AtomicInteger read = new AtomicInteger();
            Fiber reader = Weft.spawn(() -> read.set(c.in().read())); // claims the select's write, waits for it
            Schedulers.awaitParked(reader);
            c.out().write(3); // serves that reader before the select runs
            d.out().write(4);
            selecting.join();
            reader.join();
            assertEquals(3, read.get());
            assertEquals("d4", got.get());
        });
    }

    /** Runs {@code program} 50 times, each on a new one-carrier scheduler: the same interleaving every time. */
    private static void onOneCarrier(CSProcess program) {
        for (int round = 0; round < 50; round++) {
            try (Scheduler s = Scheduler.singleThreaded()) {
                Weft.run(s, program);
            }
        }
    }

    private static void selfSelect(Scheduler s) {
        Any2AnyChannel<Integer> c = Channel.any2any();
        AtomicReference<String> problem = new AtomicReference<>();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        Weft.run(s, () -> {
            for (int p = 0; p < 2; p++) {
                int me = p;
                Weft.spawn(() -> {
                    Alternative alt = new Alternative(c.out(), c.in());
                    for (int i = 0; i < 1000; i++) {
                        if (alt.select() == 0) {
                            c.out().write(me);
                            writes.incrementAndGet();
                        } else {
                            int v = c.in().read();
                            reads.incrementAndGet();
                            if (v == me) {
                                problem.compareAndSet(null, "fiber " + me + " read its own value");
                            }
                        }
                    }
                });
            }
        });
        assertNull(problem.get());
        assertEquals(2000, writes.get() + reads.get());
        assertEquals(writes.get(), reads.get());
    }

    /** One alternative alone over both ends of a synchronous channel cannot meet itself: only its timeout. */
    @Test
    @Timeout(10)
    void anAlternativeNeverMeetsItself() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            Any2AnyChannel<Integer> c = Channel.any2any();
            Alternative alt = new Alternative(c.out(), c.in(), Guards.timeout(Duration.ofMillis(1)));
            assertEquals(-1, alt.selectNow());
            assertEquals(2, alt.priSelect());
            assertFalse(c.in().pending());
        }));
    }

    private static final String[] RECEIVES = {"read", "alt(in)", "alt(in, other)"};
    private static final String[] SENDS = {"write", "alt(out)", "alt(out, other)"};

    @Pausable
    private static void receive(int how, Any2AnyChannel<Integer> c, Any2AnyChannel<Integer> other, int[] box) {
        if (how == 0) {
            box[0] = c.in().read();
        } else if (how == 1) {
            assertEquals(0, new Alternative(c.in()).select());
            box[0] = c.in().read();
        } else {
            assertEquals(0, new Alternative(c.in(), other.in()).select());
            box[0] = c.in().read();
        }
    }

    @Pausable
    private static void send(int how, Any2AnyChannel<Integer> c, Any2AnyChannel<Integer> other, int v) {
        if (how == 0) {
            c.out().write(v);
        } else if (how == 1) {
            assertEquals(0, new Alternative(c.out()).select());
            c.out().write(v);
        } else {
            assertEquals(0, new Alternative(c.out(), other.out()).select());
            c.out().write(v);
        }
    }

    /** Go's select7: every way to receive meets every way to send, whoever comes first. */
    @Test
    @Timeout(30)
    void everyWayToReceiveMeetsEveryWayToSend() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            for (int r = 0; r < RECEIVES.length; r++) {
                for (int w = 0; w < SENDS.length; w++) {
                    for (boolean readerFirst : new boolean[] {true, false}) {
                        int how = r;
                        int hw = w;
                        int[] box = new int[1];
                        Weft.run(s, () -> {
                            Any2AnyChannel<Integer> c = Channel.any2any();
                            Any2AnyChannel<Integer> readersOther = Channel.any2any(); // each its own, as in Go
                            Any2AnyChannel<Integer> writersOther = Channel.any2any();
                            CSProcess reader = () -> receive(how, c, readersOther, box);
                            CSProcess writer = () -> send(hw, c, writersOther, 42);
                            Fiber first = Weft.spawn(readerFirst ? reader : writer);
                            Schedulers.awaitParked(first);
                            Fiber second = Weft.spawn(readerFirst ? writer : reader);
                            first.join();
                            second.join();
                        });
                        assertEquals(42, box[0], RECEIVES[r] + " / " + SENDS[w] + (readerFirst ? ", reader first"
                                : ", writer first"));
                    }
                }
            }
        });
    }

    /**
     * Go's select6 (issue 2075): an alternative woken through one channel must leave the queue of the other,
     * so that the plain reader queued behind it there still gets the next value.
     */
    @Test
    @Timeout(30)
    void anAlternativeWokenElsewhereLeavesTheOtherQueue() {
        Schedulers.onOneAndTwoWorkers(50, s -> {
            int[] got = new int[2];
            Weft.run(s, () -> {
                Any2AnyChannel<Integer> c1 = Channel.any2any();
                Any2AnyChannel<Integer> c2 = Channel.any2any();
                One2OneChannel<Boolean> c3 = Channel.one2one();
                Fiber selecting = Weft.spawn(() -> {
                    Alternative alt = new Alternative(c1.in(), c2.in());
                    int i = alt.priSelect();
                    if (i == 0) {
                        throw new AssertionError("c1 was chosen before anyone wrote it");
                    }
                    c2.in().read();
                    c3.out().write(true);
                    got[1] = c1.in().read();
                });
                Schedulers.awaitParked(selecting);
                Fiber plain = Weft.spawn(() -> got[0] = c1.in().read());
                Schedulers.awaitParked(plain);
                c2.out().write(1);
                c3.in().read();
                c1.out().write(10); // the plain reader is first in c1's queue now
                c1.out().write(20);
                plain.join();
                selecting.join();
            });
            assertEquals(10, got[0]);
            assertEquals(20, got[1]);
        });
    }

    /**
     * Output guards meet input guards across two alternatives, each over two channels, many times: nothing
     * lost, each channel in order.
     */
    @Test
    @Timeout(30)
    void outputAlternativesMeetInputAlternatives() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            for (int capacity : new int[] {0, 1}) {
                int n = 2000;
                int[] next = new int[2];
                AtomicReference<String> problem = new AtomicReference<>();
                Weft.run(s, () -> {
                    One2OneChannel<Integer> a = Channel.one2one(capacity);
                    One2OneChannel<Integer> b = Channel.one2one(capacity);
                    Weft.spawn(() -> {
                        Alternative alt = new Alternative(a.out(), b.out(), Guards.timeout(Duration.ofDays(1)));
                        int[] sent = new int[2];
                        for (int i = 0; i < 2 * n; i++) {
                            int k = alt.select(sent[0] < n, sent[1] < n, true);
                            if (k == 2) {
                                throw new AssertionError("the day passed");
                            }
                            (k == 0 ? a : b).out().write(sent[k]++);
                        }
                    });
                    Alternative alt = new Alternative(a.in(), b.in());
                    for (int i = 0; i < 2 * n; i++) {
                        int k = alt.select();
                        int v = (k == 0 ? a : b).in().read();
                        if (v != next[k]) {
                            problem.compareAndSet(null, "channel " + k + " gave " + v + ", expected " + next[k]);
                        }
                        next[k] = v + 1;
                    }
                });
                assertNull(problem.get());
                assertEquals(n, next[0]);
                assertEquals(n, next[1]);
            }
        });
    }

    /**
     * Go's TestSelectFairness: two guards always ready, placed after guards that never are, are chosen about
     * equally, by one alternative's repeated select and by a fresh alternative per choice.
     */
    @Test
    @Timeout(30)
    void selectIsFairBetweenReadyGuards() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            int n = 10_000;
            int[] kept = new int[2];
            int[] fresh = new int[2];
            int[] select = new int[2];
            int[] selectNow = new int[2];
            Weft.run(s, () -> {
                One2OneChannel<Integer> a = Channel.one2one(1);
                One2OneChannel<Integer> b = Channel.one2one(1);
                One2OneChannel<Integer> never = Channel.one2one();
                a.out().write(0);
                b.out().write(0);
                One2OneChannel<Integer> never2 = Channel.one2one();
                Alternative alt = new Alternative(never.in(), never2.in(), a.in(), b.in());
                for (int i = 0; i < n; i++) {
                    int k = alt.select() - 2;
                    (k == 0 ? a : b).out().write((k == 0 ? a : b).in().read());
                    kept[k]++;
                }
                for (int i = 0; i < n; i++) {
                    int k = new Alternative(never.in(), never2.in(), a.in(), b.in()).select() - 2;
                    (k == 0 ? a : b).out().write((k == 0 ? a : b).in().read());
                    fresh[k]++;
                }
                for (int i = 0; i < n; i++) { // the Select API, as Go's select reads, without and with a default
                    int k = new Select().read(never.in(), v -> { }).read(never2.in(), v -> { })
                            .read(a.in(), a.out()::write).read(b.in(), b.out()::write).run() - 2;
                    select[k]++;
                    k = new Select().read(never.in(), v -> { }).read(never2.in(), v -> { })
                            .read(a.in(), a.out()::write).read(b.in(), b.out()::write).orElse(() -> { }).run() - 2;
                    selectNow[k]++;
                }
            });
            assertTrue(kept[0] >= n * 0.45 && kept[1] >= n * 0.45, kept[0] + " / " + kept[1]);
            assertTrue(fresh[0] >= n * 0.45 && fresh[1] >= n * 0.45, fresh[0] + " / " + fresh[1]);
            assertTrue(select[0] >= n * 0.45 && select[1] >= n * 0.45, select[0] + " / " + select[1]);
            assertTrue(selectNow[0] >= n * 0.45 && selectNow[1] >= n * 0.45, selectNow[0] + " / " + selectNow[1]);
        }
    }

    /**
     * Go's TestPseudoRandomSend and TestSelectDuplicateChannel: the same channel end twice in one alternative
     * works, and a fair select uses both cases.
     */
    @Test
    @Timeout(30)
    void theSameEndTwiceInOneAlternative() {
        Schedulers.onOneAndTwoWorkers(5, s -> {
            int n = 1000;
            int[] counts = new int[2];
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Weft.spawn(() -> {
                    Alternative alt = new Alternative(c.out(), c.out());
                    for (int i = 0; i < n; i++) {
                        c.out().write(alt.select());
                    }
                });
                for (int i = 0; i < n; i++) {
                    counts[c.in().read()]++;
                }
                One2OneChannel<Integer> d = Channel.one2one();
                One2OneChannel<Integer> e = Channel.one2one();
                Weft.spawn(() -> d.out().write(5));
                int k = new Alternative(d.in(), d.in(), e.in()).select();
                assertTrue(k == 0 || k == 1, "chose " + k);
                assertEquals(5, d.in().read());
            });
            assertEquals(n, counts[0] + counts[1]);
            assertTrue(counts[0] > n / 4 && counts[1] > n / 4, counts[0] + " / " + counts[1]);
        });
    }

    /**
     * Go's nonblock test: a non-blocking receive or send fails while nobody is there, and succeeds (without
     * waiting) once a partner waits.
     */
    @Test
    @Timeout(30)
    void selectNowSucceedsOnlyWithAPartnerOrRoom() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Alternative in = new Alternative(c.in());
            Alternative out = new Alternative(c.out());
            assertEquals(-1, in.selectNow());
            assertEquals(-1, out.selectNow());
            // a reader waits: the non-blocking send succeeds once it is there
            int[] got = new int[1];
            Fiber reader = Weft.spawn(() -> got[0] = c.in().read());
            while (out.selectNow() < 0) {
                Fiber.yield();
            }
            c.out().write(3);
            reader.join();
            assertEquals(3, got[0]);
            // a writer waits: the non-blocking receive succeeds once it is there, and pending() agrees
            Fiber writer = Weft.spawn(() -> c.out().write(4));
            while (in.selectNow() < 0) {
                Fiber.yield();
            }
            assertTrue(c.in().pending());
            assertEquals(4, c.in().read());
            writer.join();
            assertEquals(-1, in.selectNow());
            assertFalse(c.in().pending());
            // buffered: ready while room, input ready while values
            One2OneChannel<Integer> b = Channel.one2one(2);
            Alternative bin = new Alternative(b.in());
            Alternative bout = new Alternative(b.out());
            assertEquals(0, bout.selectNow());
            b.out().write(1);
            assertEquals(0, bin.selectNow());
            b.out().write(2);
            assertEquals(-1, bout.selectNow());
            assertEquals(1, b.in().read());
            assertEquals(0, bout.selectNow());
        }));
    }

    /**
     * Go's TestNonblockSelectRace: a value moves from one channel to another (written there before it is
     * taken here), so a non-blocking select over both always finds one ready, whatever the guards' order.
     */
    @Test
    @Timeout(30)
    void selectNowOverTwoChannelsSeesAValueMovingBetweenThem() {
        Schedulers.onOneAndTwoWorkers(500, s -> {
            AtomicInteger misses = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c1 = Channel.one2one(1);
                One2OneChannel<Integer> c2 = Channel.one2one(1);
                c1.out().write(1);
                Fiber f = Weft.spawn(() -> {
                    if (new Alternative(c2.in(), c1.in()).selectNow() < 0) {
                        misses.incrementAndGet();
                    }
                });
                c2.out().write(1);
                if (new Alternative(c1.in()).selectNow() == 0) {
                    c1.in().read();
                }
                f.join();
            });
            assertEquals(0, misses.get());
        });
    }

    /**
     * Go's TestNonblockRecvRace: a buffered value stays ready for a non-blocking receive while the channel is
     * closed, and is then read before the end.
     */
    @Test
    @Timeout(30)
    void aBufferedValueStaysReadyWhileTheChannelCloses() {
        Schedulers.onOneAndTwoWorkers(500, s -> {
            AtomicInteger misses = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one(1);
                c.out().write(1);
                Fiber f = Weft.spawn(() -> {
                    if (new Alternative(c.in()).selectNow() != 0) {
                        misses.incrementAndGet();
                    }
                });
                c.out().close();
                f.join();
                assertEquals(1, c.in().read());
                Conformance.expect(dev.weft.csp.ChannelClosedException.class, () -> c.in().read());
            });
            assertEquals(0, misses.get());
        });
    }

    /** pending() is true when a committed writer waits, and stays true until the value is taken. */
    @Test
    @Timeout(30)
    void pendingHoldsUntilTheValueIsTaken() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            assertFalse(c.in().pending());
            Fiber w = Weft.spawn(() -> c.out().write(9));
            while (!c.in().pending()) {
                Fiber.yield();
            }
            for (int i = 0; i < 10; i++) {
                assertTrue(c.in().pending());
                Fiber.yield();
            }
            assertEquals(9, c.in().read());
            w.join();
            assertFalse(c.in().pending());
        }));
    }

    /** Preconditions disable guards; all disabled is refused. */
    @Test
    @Timeout(10)
    void preconditionsDisableGuards() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                Alternative alt = new Alternative(Guards.skip(), Guards.skip(), Guards.skip());
                assertEquals(2, alt.priSelect(false, false, true));
                assertEquals(1, alt.select(false, true, false));
                Conformance.expect(IllegalStateException.class, () -> alt.select(false, false, false));
                Conformance.expect(IllegalStateException.class, () -> alt.priSelect(false, false, false));
                assertEquals(0, alt.selectNow());
                assertEquals(0, alt.priSelect());
            });
        }
    }

    /** JCSP's priSelect: the lowest ready index, every time, among inputs, outputs and skip. */
    @Test
    @Timeout(10)
    void priSelectTakesTheLowestReadyIndex() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                One2OneChannel<Integer> a = Channel.one2one(1);
                One2OneChannel<Integer> b = Channel.one2one(ChannelBuffer.fixed(1));
                Alternative alt = new Alternative(a.in(), b.out(), Guards.skip());
                for (int i = 0; i < 10; i++) {
                    assertEquals(1, alt.priSelect());
                    assertEquals(1, alt.selectNow());
                }
                a.out().write(1);
                for (int i = 0; i < 10; i++) {
                    assertEquals(0, alt.priSelect());
                }
                b.out().write(2);
                a.in().read();
                assertEquals(2, alt.priSelect());
                assertEquals(2, alt.selectNow());
            });
        }
    }

    /** A shared input alted by several readers at once: each value goes to exactly one of them. */
    @Test
    @Timeout(30)
    void manyAlternativesOnOneSharedInput() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            int n = 3000;
            AtomicInteger sum = new AtomicInteger();
            AtomicInteger count = new AtomicInteger();
            Weft.run(s, () -> {
                Any2AnyChannel<Integer> c = Channel.any2any();
                Any2OneChannel<Integer> stop = Channel.any2one(); // three writers say they are done
                AltingChannelInput<Integer> in = c.in();
                List<Fiber> readers = new ArrayList<>();
                for (int r = 0; r < 4; r++) {
                    readers.add(Weft.spawn(() -> {
                        Alternative alt = new Alternative(in, Guards.timeout(Duration.ofDays(1)));
                        try {
                            for (;;) {
                                if (alt.select() == 0) {
                                    sum.addAndGet(in.read());
                                    count.incrementAndGet();
                                }
                            }
                        } catch (dev.weft.csp.ChannelClosedException end) {
                            // done
                        }
                    }));
                }
                AltingChannelOutput<Integer> out = c.out();
                for (int w = 0; w < 3; w++) {
                    Weft.spawn(() -> {
                        for (int i = 1; i <= n; i++) {
                            out.write(i);
                        }
                        stop.out().write(0);
                    });
                }
                for (int w = 0; w < 3; w++) {
                    stop.in().read();
                }
                out.close();
                for (Fiber r : readers) {
                    r.join();
                }
            });
            assertEquals(3 * n, count.get());
            assertEquals(3 * n * (n + 1) / 2, sum.get());
        });
    }

    /**
     * Go's doubleselect, crossed: fibers of one side select over (write a, read b), of the other over (write b,
     * read a), so alternatives meet on either channel in either role. Each value arrives once, each sender's
     * values in order.
     */
    @Test
    @Timeout(30)
    void crossedAlternativesMeetOnEitherChannel() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            int perFiber = 1000;
            int pairs = 2;
            AtomicReference<String> problem = new AtomicReference<>();
            AtomicInteger exchanges = new AtomicInteger();
            Weft.run(s, () -> {
                Any2AnyChannel<int[]> a = Channel.any2any();
                Any2AnyChannel<int[]> b = Channel.any2any();
                for (int f = 0; f < 2 * pairs; f++) {
                    int me = f;
                    boolean left = f % 2 == 0;
                    Any2AnyChannel<int[]> mine = left ? a : b;
                    Any2AnyChannel<int[]> theirs = left ? b : a;
                    Weft.spawn(() -> {
                        Alternative alt = new Alternative(mine.out(), theirs.in());
                        int[] last = new int[2 * pairs];
                        java.util.Arrays.fill(last, -1);
                        int sent = 0;
                        for (int i = 0; i < perFiber; i++) {
                            if (alt.select() == 0) {
                                mine.out().write(new int[] {me, sent++});
                            } else {
                                int[] v = theirs.in().read();
                                exchanges.incrementAndGet();
                                if (v[0] % 2 == me % 2 || v[1] <= last[v[0]]) {
                                    problem.compareAndSet(null, me + " read " + v[0] + ":" + v[1]);
                                }
                                last[v[0]] = v[1];
                            }
                        }
                    });
                }
            });
            assertNull(problem.get());
            assertEquals(pairs * perFiber, exchanges.get());
        });
    }

    @Test
    @Timeout(10)
    void badAlternativesAreRefused() {
        Schedulers.onOneAndTwoWorkers(0, s -> Weft.run(s, () -> {
            Conformance.expect(IllegalArgumentException.class, () -> new Alternative());
            Conformance.expect(IllegalArgumentException.class, () -> new Alternative((dev.weft.csp.Guard) null));
            Alternative alt = new Alternative(Guards.skip(), Guards.skip());
            Conformance.expect(IllegalArgumentException.class, () -> alt.select(true));
            assertNotEquals(-1, alt.selectNow());
        }));
    }
}
