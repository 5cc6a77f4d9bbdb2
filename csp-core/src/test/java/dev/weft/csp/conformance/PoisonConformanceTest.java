package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Poison (JCSP) and close (Go, Kotlin): poison is immediate, from either end, wakes every blocked party,
 * drops buffered values, counts as ready in an alternative, and is harmless twice; close is orderly.
 */
class PoisonConformanceTest {

    private static List<Supplier<ChannelBuffer<Integer>>> buffers() {
        return List.of(() -> null, () -> ChannelBuffer.fixed(3), ChannelBuffer::unbounded,
                () -> ChannelBuffer.overwritingOldest(2));
    }

    @Test
    @Timeout(30)
    void poisonFromEitherEndEndsEveryLaterOperationAndDropsBufferedValues() {
        Schedulers.onOneAndTwoWorkers(5, s -> {
            for (Supplier<ChannelBuffer<Integer>> b : buffers()) {
                for (boolean fromReader : new boolean[] {true, false}) {
                    for (Ends<Integer> ch : Ends.allKinds(b)) {
                        Weft.run(s, () -> {
                            if (b.get() != null) {
                                ch.out.write(1); // buffered
                            }
                            if (fromReader) {
                                ch.in.poison();
                            } else {
                                ch.out.poison();
                            }
                            ch.in.poison(); // twice, from either end: harmless
                            ch.out.poison();
                            Conformance.expect(PoisonException.class, () -> ch.in.read());
                            Conformance.expect(PoisonException.class, () -> ch.in.read());
                            Conformance.expect(PoisonException.class, () -> ch.out.write(2));
                            ch.out.close(); // closing a poisoned channel does nothing
                            PoisonException e = Conformance.expect(PoisonException.class, () -> ch.in.read());
                            assertFalse(e instanceof ChannelClosedException, ch + ": still poisoned, not closed");
                            assertEquals(0, new Alternative(ch.in).selectNow(), "a poisoned input is ready");
                            assertEquals(0, new Alternative(ch.out).selectNow(), "a poisoned output is ready");
                        });
                    }
                }
            }
        });
    }

    /** JCSP: poison wakes every blocked reader and writer on either end, at once. */
    @Test
    @Timeout(30)
    void poisonWakesEveryBlockedParty() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            for (int capacity : new int[] {0, 2}) {
                AtomicInteger poisoned = new AtomicInteger();
                Weft.run(s, () -> {
                    Any2AnyChannel<Integer> readers = Channel.any2any(capacity);
                    Any2AnyChannel<Integer> writers = Channel.any2any(capacity);
                    for (int i = 0; i < capacity; i++) {
                        writers.out().write(i); // full: the writers below wait
                    }
                    List<Fiber> fs = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        fs.add(Weft.spawn(() -> {
                            Conformance.expect(PoisonException.class, () -> readers.in().read());
                            poisoned.incrementAndGet();
                        }));
                        fs.add(Weft.spawn(() -> {
                            Conformance.expect(PoisonException.class, () -> writers.out().write(9));
                            poisoned.incrementAndGet();
                        }));
                        fs.add(Weft.spawn(() -> {
                            Alternative alt = new Alternative(readers.in(), Guards.timeout(Duration.ofDays(1)));
                            assertEquals(0, alt.select());
                            Conformance.expect(PoisonException.class, () -> readers.in().read());
                            poisoned.incrementAndGet();
                        }));
                    }
                    for (Fiber f : fs) {
                        Schedulers.awaitParked(f);
                    }
                    readers.out().poison(); // the writer's end poisons the readers
                    writers.in().poison(); // the reader's end poisons the writers
                    for (Fiber f : fs) {
                        f.join();
                    }
                });
                assertEquals(12, poisoned.get());
            }
        });
    }

    /** JCSP: a poisoned guard is ready, priSelect takes it by index, and the operation after it throws. */
    @Test
    @Timeout(10)
    void aPoisonedGuardIsReadyAndItsOperationThrows() {
        Schedulers.onOneAndTwoWorkers(10, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> quiet = Channel.one2one();
            One2OneChannel<Integer> busy = Channel.one2one(1);
            One2OneChannel<Integer> dead = Channel.one2one();
            busy.out().write(1);
            dead.out().poison();
            Alternative alt = new Alternative(quiet.in(), dead.in(), busy.in());
            assertEquals(1, alt.priSelect());
            assertEquals(1, alt.selectNow());
            Conformance.expect(PoisonException.class, () -> dead.in().read());
            One2OneChannel<Integer> deadOut = Channel.one2one();
            deadOut.in().poison();
            assertEquals(0, new Alternative(deadOut.out(), quiet.out()).priSelect());
            Conformance.expect(PoisonException.class, () -> deadOut.out().write(1));
            // a select already waiting is woken by the poison
            One2OneChannel<Integer> later = Channel.one2one();
            Fiber waiting = Weft.spawn(() -> {
                assertEquals(1, new Alternative(quiet.in(), later.in()).select());
                Conformance.expect(PoisonException.class, () -> later.in().read());
            });
            Schedulers.awaitParked(waiting);
            later.out().poison();
            waiting.join();
        }));
    }

    /** Go's and Kotlin's close: the values written before are read, then every read ends; forEach returns. */
    @Test
    @Timeout(30)
    void closeIsOrderly() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            for (Supplier<ChannelBuffer<Integer>> b : List.<Supplier<ChannelBuffer<Integer>>>of(() -> null,
                    () -> ChannelBuffer.fixed(3), ChannelBuffer::unbounded)) {
                for (Ends<Integer> ch : Ends.allKinds(b)) {
                    List<Integer> got = new ArrayList<>();
                    Weft.run(s, () -> {
                        Weft.spawn(() -> {
                            for (int i = 0; i < 10; i++) {
                                ch.out.write(i);
                            }
                            ch.out.close();
                            ch.out.close(); // twice: nothing
                            Conformance.expect(ChannelClosedException.class, () -> ch.out.write(10));
                        });
                        ch.in.forEach(got::add);
                        Conformance.expect(ChannelClosedException.class, () -> ch.in.read());
                        assertEquals(0, new Alternative(ch.in).selectNow(), "a closed input is ready");
                    });
                    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), got, ch.toString());
                }
            }
        });
    }

    /** Kotlin's ChannelsTest: poison after a close still drops the values left. */
    @Test
    @Timeout(10)
    void poisonAfterCloseDropsWhatIsLeft() {
        Schedulers.onOneAndTwoWorkers(0, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one(3);
            c.out().write(1);
            c.out().write(2);
            c.out().close();
            assertEquals(1, c.in().read());
            c.in().poison();
            PoisonException e = Conformance.expect(PoisonException.class, () -> c.in().read());
            assertNotEquals(ChannelClosedException.class, e.getClass());
            assertTrue(c.in().pending() || !c.in().pending()); // pending() still answers
        }));
    }

    /** An overwriting buffer (Kotlin's conflated and DROP_OLDEST channels) keeps the newest values. */
    @Test
    @Timeout(30)
    void anOverwritingBufferKeepsTheNewestAndNeverBlocks() {
        Schedulers.onOneAndTwoWorkers(10, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> conflated = Channel.one2one(ChannelBuffer.overwritingOldest(1));
            Alternative room = new Alternative(conflated.out());
            for (int i = 0; i < 100; i++) {
                assertEquals(0, room.selectNow(), "an overwriting buffer always has room");
                conflated.out().write(i);
            }
            assertTrue(conflated.in().pending());
            assertEquals(99, conflated.in().read());
            assertFalse(conflated.in().pending());
            One2OneChannel<Integer> last3 = Channel.one2one(ChannelBuffer.overwritingOldest(3));
            for (int i = 0; i < 10; i++) {
                last3.out().write(i);
            }
            assertEquals(7, last3.in().read());
            last3.out().write(10);
            assertEquals(8, last3.in().read());
            assertEquals(9, last3.in().read());
            assertEquals(10, last3.in().read());
            assertFalse(last3.in().pending());
            // a waiting reader gets the value itself
            int[] got = new int[1];
            Fiber r = Weft.spawn(() -> got[0] = last3.in().read());
            Schedulers.awaitParked(r);
            last3.out().write(11);
            r.join();
            assertEquals(11, got[0]);
            // close keeps what is buffered; poison drops it
            last3.out().write(12);
            last3.out().close();
            assertEquals(12, last3.in().read());
            Conformance.expect(ChannelClosedException.class, () -> last3.in().read());
        }));
    }

    /** A conflated channel under a fast writer: the reader sees an increasing sequence ending with the last. */
    @Test
    @Timeout(30)
    void aConflatedReaderSeesIncreasingValuesEndingWithTheLast() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            List<Integer> got = new ArrayList<>();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one(ChannelBuffer.overwritingOldest(1));
                Weft.spawn(() -> {
                    for (int i = 0; i <= 10_000; i++) {
                        c.out().write(i);
                        if (i % 100 == 0) {
                            Fiber.yield();
                        }
                    }
                    c.out().close();
                });
                c.in().forEach(got::add);
            });
            assertEquals(10_000, got.get(got.size() - 1));
            for (int i = 1; i < got.size(); i++) {
                assertTrue(got.get(i - 1) < got.get(i), got.toString());
            }
        });
    }
}
