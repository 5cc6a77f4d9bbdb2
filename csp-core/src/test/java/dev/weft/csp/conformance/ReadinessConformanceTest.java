package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Readiness seen and then cancelled (the cancellation rule wins: a cancelled party is withdrawn), close with
 * parties already waiting (Kotlin's close), and the lifecycle rules of Weft.run, Parallel and Fiber.
 */
class ReadinessConformanceTest {

    /**
     * A waiting writer seen by pending(), then cancelled: either its cancellation withdrew it (its write threw
     * and delivered nothing, the end is no longer ready) or the value went through; never both, never neither.
     */
    @Test
    @Timeout(30)
    void aWriterSeenPendingThenCancelledIsConsistent() {
        Schedulers.onOneAndTwoWorkers(50, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Fiber writer = Weft.spawn(() -> c.out().write(7));
            Schedulers.awaitParked(writer);
            assertTrue(c.in().pending());
            writer.cancel();
            boolean withdrawn;
            try {
                writer.join();
                withdrawn = false;
            } catch (CancelledException e) {
                withdrawn = true;
            }
            if (withdrawn) {
                assertFalse(c.in().pending(), "a withdrawn writer left nothing");
                Weft.spawn(() -> c.out().write(9));
                assertEquals(9, c.in().read());
            } else {
                throw new AssertionError("a synchronous write returned with nobody reading");
            }
        }));
    }

    /** A waiting reader seen by selectNow, then cancelled: it is withdrawn, so the output is no longer ready. */
    @Test
    @Timeout(30)
    void aReaderSeenBySelectNowThenCancelledIsWithdrawn() {
        Schedulers.onOneAndTwoWorkers(50, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            Fiber reader = Weft.spawn(() -> c.in().read());
            Schedulers.awaitParked(reader);
            Alternative out = new Alternative(c.out());
            assertEquals(0, out.selectNow());
            reader.cancel();
            Conformance.expect(CancelledException.class, reader::join);
            assertEquals(-1, out.selectNow(), "the cancelled reader took nothing and left");
            Conformance.aNewReaderGets(c.in(), c.out(), 8);
        }));
    }

    /** Kotlin's close: readers already waiting are told the end; a writer already waiting still delivers. */
    @Test
    @Timeout(30)
    void closeEndsWaitingReadersAndLetsWaitingWritersDeliver() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            List<Integer> got = new ArrayList<>();
            AtomicInteger ended = new AtomicInteger();
            Weft.run(s, () -> {
                Any2AnyChannel<Integer> idle = Channel.any2any();
                List<Fiber> readers = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    Fiber r = Weft.spawn(() -> {
                        Conformance.expect(ChannelClosedException.class, () -> idle.in().read());
                        ended.incrementAndGet();
                    });
                    Schedulers.awaitParked(r);
                    readers.add(r);
                }
                idle.out().close();
                for (Fiber r : readers) {
                    r.join();
                }
                One2OneChannel<Integer> full = Channel.one2one(1);
                full.out().write(1);
                Fiber writer = Weft.spawn(() -> full.out().write(2));
                Schedulers.awaitParked(writer);
                full.out().close();
                full.in().forEach(got::add);
                writer.join(); // its write went through
            });
            assertEquals(3, ended.get());
            assertEquals(List.of(1, 2), got);
        });
    }

    /** A closed output is a ready guard whose write throws, on one end and on a shared one. */
    @Test
    @Timeout(10)
    void aClosedOutputIsReadyAndItsWriteThrows() {
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> quiet = Channel.one2one();
            Any2AnyChannel<Integer> c = Channel.any2any();
            c.out().close();
            Alternative alt = new Alternative(quiet.out(), c.out());
            assertEquals(1, alt.selectNow());
            assertEquals(1, alt.select());
            Conformance.expect(ChannelClosedException.class, () -> c.out().write(1));
        }));
    }

    /** Weft.run from a fiber fails at once; Parallel with no process returns; forRange checks its range. */
    @Test
    @Timeout(10)
    void lifecycleRules() {
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            Conformance.expect(IllegalStateException.class, () -> Weft.run(s, () -> { }));
            Parallel.run();
            int[] count = new int[1];
            Parallel.forRange(3, 3, i -> count[0]++);
            Parallel.forRange(0, 100, i -> {
                synchronized (count) {
                    count[0]++;
                }
            });
            assertEquals(100, count[0]);
            Conformance.expect(IllegalArgumentException.class, () -> Parallel.forRange(2, 1, i -> { }));
        }));
        try (dev.weft.csp.Scheduler s = dev.weft.csp.Scheduler.singleThreaded()) {
            RuntimeException mine = new RuntimeException("mine");
            assertTrue(mine == assertThrows(RuntimeException.class, () -> Weft.run(s, () -> {
                throw mine;
            })), "the very exception main threw");
        }
    }

    /** A spawned fiber's failure comes back from join; an ended fiber ignores cancel. */
    @Test
    @Timeout(10)
    void joinRethrowsAndCancelAfterTheEndChangesNothing() {
        Schedulers.onOneAndTwoWorkers(5, s -> Weft.run(s, () -> {
            ArithmeticException boom = new ArithmeticException("boom");
            Fiber f = Weft.spawn(() -> {
                throw boom;
            });
            assertTrue(boom == Conformance.expect(ArithmeticException.class, f::join));
            Fiber g = Weft.spawn(() -> { });
            g.join();
            g.cancel();
            g.join();
            assertTrue(g.isDone());
        }));
    }
}
