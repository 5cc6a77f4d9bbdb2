package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.spi.Extensions;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What libraries built on Weft use: offer, outside use, forwarding guards. */
@Timeout(60)
class ExtensionsTest {
    @Test
    void offerFillsTheBufferThenRefuses() {
        One2OneChannel<Integer> c = Channel.one2one(2);
        assertTrue(Extensions.offer(c.out(), 1));
        assertTrue(Extensions.offer(c.out(), 2));
        assertFalse(Extensions.offer(c.out(), 3));
        assertEquals(1, c.in().read());
        assertTrue(Extensions.offer(c.out(), 3));
        c.in().poison();
        assertFalse(Extensions.offer(c.out(), 4));
    }

    @Test
    void pollTakesWhatIsBufferedWithoutWaiting() {
        One2OneChannel<Integer> c = Channel.one2one(3);
        assertEquals(null, Extensions.poll(c.in()));
        c.out().write(1);
        c.out().write(2);
        assertEquals(1, Extensions.poll(c.in()));
        assertEquals(2, Extensions.poll(c.in()));
        assertEquals(null, Extensions.poll(c.in()));
        c.out().write(3);
        c.in().poison();
        assertEquals(null, Extensions.poll(c.in())); // poison empties the buffer
    }

    @Test
    void awaitedSaysWhetherAReaderOrAnAlternativeWaits() throws Exception {
        Schedulers.onOneAndTwoWorkers(5, s -> {
            One2OneChannel<Integer> c = Channel.one2one(1);
            One2OneChannel<Integer> d = Channel.one2one(1);
            assertFalse(Extensions.awaited(c.in()));
            Weft.run(s, () -> {
                Fiber reader = Weft.spawn(() -> c.in().read());
                Fiber selector = Weft.spawn(() -> new Alternative(d.in()).select());
                Schedulers.awaitParked(reader);
                Schedulers.awaitParked(selector);
                assertTrue(Extensions.awaited(c.in()));
                assertTrue(Extensions.awaited(d.in()));
                c.out().write(1);
                d.out().write(2);
                reader.join();
                selector.join();
                assertFalse(Extensions.awaited(c.in()));
                assertFalse(Extensions.awaited(d.in())); // the alternative has left
            });
        });
    }

    @Test
    void offerNeedsABufferedChannelAndAValue() {
        assertThrows(IllegalArgumentException.class, () -> Extensions.offer(Channel.<Integer>one2one().out(), 1));
        assertThrows(NullPointerException.class, () -> Extensions.offer(Channel.<Integer>one2one(1).out(), null));
    }

    /** A method that is not pausable, as a network callback is. */
    private static boolean offerFromPlainCode(ChannelOutput<Integer> out, int v) {
        return Extensions.offer(out, v);
    }

    @Test
    void offerWakesAWaitingReaderAndAWaitingAlternativeFromAnyThread() throws Exception {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            One2OneChannel<Integer> c = Channel.one2one(1);
            One2OneChannel<Integer> d = Channel.one2one(1);
            Extensions.usedFromOutside(c.in());
            AtomicInteger sum = new AtomicInteger();
            Weft.run(s, () -> {
                Fiber reader = Weft.spawn(() -> sum.addAndGet(c.in().read()));
                Fiber selector = Weft.spawn(() -> {
                    new Alternative(d.in()).select();
                    sum.addAndGet(d.in().read());
                });
                Schedulers.awaitParked(reader);
                Schedulers.awaitParked(selector);
                assertTrue(offerFromPlainCode(c.out(), 1)); // from a fiber, through plain code
                assertTrue(offerFromPlainCode(d.out(), 2));
                reader.join();
                selector.join();
            });
            assertEquals(3, sum.get());
        });
    }

    @Test
    void aFiberWaitingOnAChannelUsedFromOutsideIsNotADeadlock() throws Exception {
        // the control: without the mark, the check fires
        try (Scheduler s = Scheduler.singleThreaded()) {
            assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one(1);
                c.in().read();
            }));
        }
        try (Scheduler s = Scheduler.singleThreaded()) {
            AtomicReference<One2OneChannel<Integer>> shared = new AtomicReference<>();
            Thread outside = new Thread(() -> {
                while (shared.get() == null || !s.dumpFibers().contains("parked, waiting on the input of "
                        + shared.get())) {
                    Thread.onSpinWait();
                }
                Extensions.offer(shared.get().out(), 5);
            });
            outside.setDaemon(true);
            outside.start();
            AtomicInteger got = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one(1);
                Extensions.usedFromOutside(c.in());
                shared.set(c);
                got.set(c.in().read());
            });
            assertEquals(5, got.get());
        }
    }

    @Test
    void anAlternativeWaitsOnTheGuardAForwardingGuardStandsFor() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            One2OneChannel<String> c = Channel.one2one();
            ForwardingGuard forward = () -> c.in();
            AtomicReference<String> got = new AtomicReference<>();
            Weft.run(s, () -> Parallel.run(
                    () -> c.out().write("through the forward"),
                    () -> {
                        assertEquals(0, new Alternative(forward, Guards.timeout(java.time.Duration.ofDays(1))).select());
                        got.set(c.in().read());
                    }));
            assertEquals("through the forward", got.get());
        });
        assertThrows(IllegalArgumentException.class, () -> new Alternative(new Guard() { }));
    }
}
