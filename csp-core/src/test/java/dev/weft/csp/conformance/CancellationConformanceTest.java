package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Barrier;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cancellation (Kotlin's cancellation tests, with Weft's rule): a cancelled write delivered nothing, a
 * cancelled read took nothing, a cancelled select left nothing, a cancelled sync withdrew its arrival; and
 * under random cancellations racing the exchanges, every value whose write returned is read exactly once.
 */
class CancellationConformanceTest {

    @Test
    @Timeout(30)
    void aCancelledPartyLeavesEachChannelAsItWas() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            for (int capacity : new int[] {0, 1}) {
                Weft.run(s, () -> {
                    Any2AnyChannel<Integer> c = Channel.any2any(capacity);
                    if (capacity == 1) {
                        c.out().write(0); // full: the writers below wait
                    }
                    Fiber writer = Weft.spawn(() -> c.out().write(1));
                    Fiber selectingWriter = Weft.spawn(() -> {
                        Alternative alt = new Alternative(c.out());
                        alt.select();
                        c.out().write(2);
                    });
                    Schedulers.awaitParked(writer);
                    Schedulers.awaitParked(selectingWriter);
                    writer.cancel();
                    selectingWriter.cancel();
                    Conformance.expect(CancelledException.class, writer::join);
                    Conformance.expect(CancelledException.class, selectingWriter::join);
                    if (capacity == 1) {
                        assertEquals(0, c.in().read());
                    }
                    assertFalse(c.in().pending(), "a cancelled write delivered nothing");
                    // readers: a plain read and a selecting one, cancelled; the next value goes to a live reader
                    Fiber reader = Weft.spawn(() -> c.in().read());
                    Fiber selectingReader = Weft.spawn(() -> {
                        new Alternative(c.in(), Guards.timeout(Duration.ofDays(1))).select();
                        c.in().read();
                    });
                    Schedulers.awaitParked(reader);
                    Schedulers.awaitParked(selectingReader);
                    reader.cancel();
                    selectingReader.cancel();
                    Conformance.expect(CancelledException.class, reader::join);
                    Conformance.expect(CancelledException.class, selectingReader::join);
                    if (capacity == 0) {
                        assertEquals(-1, new Alternative(c.out()).selectNow(), "no cancelled reader waits");
                    }
                    Conformance.aNewReaderGets(c.in(), c.out(), 7);
                });
            }
        });
    }

    /** JCSP-style barrier: a cancelled sync withdrew its arrival and the fiber stays enrolled. */
    @Test
    @Timeout(30)
    void aCancelledSyncWithdrawsItsArrival() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            Barrier b = new Barrier(3);
            Fiber a = Weft.spawn(b::sync);
            Schedulers.awaitParked(a);
            a.cancel();
            Conformance.expect(CancelledException.class, a::join);
            Fiber c = Weft.spawn(b::sync);
            Schedulers.awaitParked(c);
            // a's arrival was withdrawn but a is still enrolled: two arrivals of three do not complete the round
            Fiber d = Weft.spawn(b::sync);
            Schedulers.awaitParked(d);
            assertFalse(c.isDone() || d.isDone(), "the round completed without the cancelled party");
            b.resign(); // a's place: the round completes
            c.join();
            d.join();
        }));
    }

    /**
     * Writers and readers (plain and selecting) exchange unique values on a shared channel while another
     * fiber cancels random ones. Every value whose write returned is read exactly once; none whose write was
     * cancelled is read at all.
     */
    @Test
    @Timeout(60)
    void randomCancellationsLoseAndDuplicateNothing() {
        Schedulers.onOneAndTwoWorkers(40, s -> {
            for (int capacity : new int[] {0, 4}) {
                int writers = 4;
                int perWriter = 300;
                int total = writers * perWriter;
                AtomicIntegerArray written = new AtomicIntegerArray(total); // 1: returned, 2: cancelled
                AtomicIntegerArray read = new AtomicIntegerArray(total);
                AtomicReference<String> problem = new AtomicReference<>();
                Weft.run(s, () -> {
                    Any2AnyChannel<Integer> c = Channel.any2any(capacity);
                    List<Fiber> ws = new ArrayList<>();
                    List<Fiber> rs = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        int id = w;
                        ws.add(Weft.spawn(() -> {
                            Alternative alt = new Alternative(c.out(), Guards.timeout(Duration.ofDays(1)));
                            for (int i = 0; i < perWriter; i++) {
                                int v = id * perWriter + i;
                                try {
                                    if (i % 2 == 0 && id % 2 == 0) {
                                        alt.select();
                                    }
                                    c.out().write(v);
                                    written.set(v, 1);
                                } catch (CancelledException e) {
                                    written.set(v, 2);
                                    throw e;
                                }
                            }
                        }));
                    }
                    for (int r = 0; r < 4; r++) {
                        int id = r;
                        rs.add(Weft.spawn(() -> {
                            Alternative alt = new Alternative(c.in(), Guards.timeout(Duration.ofDays(1)));
                            for (;;) {
                                if (id % 2 == 0) {
                                    alt.select();
                                }
                                int v;
                                try {
                                    v = c.in().read();
                                } catch (ChannelClosedException end) {
                                    return;
                                }
                                if (read.incrementAndGet(v) != 1) {
                                    problem.compareAndSet(null, v + " read twice");
                                }
                            }
                        }));
                    }
                    // cancel one writer and two readers at random moments
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    List<Fiber> victims = List.of(ws.get(rnd.nextInt(writers)), rs.get(0), rs.get(1));
                    for (Fiber v : victims) {
                        for (int k = rnd.nextInt(50); k > 0; k--) {
                            Fiber.yield();
                        }
                        v.cancel();
                    }
                    for (Fiber w : ws) {
                        try {
                            w.join();
                        } catch (CancelledException e) {
                            // a victim
                        }
                    }
                    c.out().close();
                    for (Fiber r : rs) {
                        try {
                            r.join();
                        } catch (CancelledException e) {
                            // a victim
                        }
                    }
                    c.in().forEach(v -> {
                        if (read.incrementAndGet(v) != 1) {
                            problem.compareAndSet(null, v + " read twice (after the readers)");
                        }
                    });
                });
                assertNull(problem.get());
                for (int v = 0; v < total; v++) {
                    int w = written.get(v);
                    int r = read.get(v);
                    if (w == 1) {
                        assertEquals(1, r, "value " + v + ": its write returned, so it is read once");
                    } else {
                        assertEquals(0, r, "value " + v + ": its write " + (w == 2 ? "was cancelled" : "never ran")
                                + ", so it must not be read");
                    }
                }
            }
        });
    }

    /** A cancelled fiber blocked in a select over several channels leaves no registration on any of them. */
    @Test
    @Timeout(30)
    void aCancelledSelectLeavesNoRegistration() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> a = Channel.one2one();
            One2OneChannel<Integer> b = Channel.one2one();
            Fiber f = Weft.spawn(() -> new Alternative(a.in(), b.out(), Guards.timeout(Duration.ofDays(1))).select());
            Schedulers.awaitParked(f);
            f.cancel();
            Conformance.expect(CancelledException.class, f::join);
            assertEquals(-1, new Alternative(a.out()).selectNow(), "no reader left on a");
            assertFalse(b.in().pending(), "no writer left on b");
            Conformance.aNewReaderGets(a.in(), a.out(), 5);
        }));
    }

    /** A fiber cancelled while sleeping a huge time, or while joining, ends at once. */
    @Test
    @Timeout(30)
    void cancellationEndsEndlessWaits() {
        Schedulers.onOneAndTwoWorkers(10, s -> Weft.run(s, () -> {
            Fiber sleeper = Weft.spawn(() -> dev.weft.csp.Timer.sleep(Duration.ofSeconds(Long.MAX_VALUE)));
            Fiber joiner = Weft.spawn(sleeper::join);
            Schedulers.awaitParked(sleeper);
            Schedulers.awaitParked(joiner);
            joiner.cancel();
            Conformance.expect(CancelledException.class, joiner::join);
            assertFalse(sleeper.isDone(), "a cancelled join leaves its target alone");
            sleeper.cancel();
            Conformance.expect(CancelledException.class, sleeper::join);
            assertTrue(sleeper.isCancelled());
        }));
    }
}
