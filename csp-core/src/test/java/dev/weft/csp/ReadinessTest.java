package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ReadinessTest {
    /** A flag set by an outside thread, as a socket's bytes are. */
    private static final class Flag {
        final AtomicBoolean set = new AtomicBoolean();
        final Readiness readiness = new Readiness(set::get, "a flag");

        void raise() {
            set.set(true);
            readiness.signal();
        }
    }

    private static Thread start(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    @Timeout(60)
    void aFiberWaitsUntilAnOutsideThreadSignals() {
        Schedulers.onOneAndTwoWorkers(200, s -> {
            Flag flag = new Flag();
            start(flag::raise); // races with the wait: before, during or after the registration
            Weft.run(s, flag.readiness::await);
            assertTrue(flag.set.get());
        });
    }

    @Test
    @Timeout(60)
    void aSelectChoosesTheSignalledGuardBesideAChannelAndATimeout() {
        Schedulers.onOneAndTwoWorkers(200, s -> {
            Flag flag = new Flag();
            One2OneChannel<Integer> idle = Channel.one2one();
            AtomicInteger chosen = new AtomicInteger(-1);
            start(flag::raise);
            Weft.run(s, () -> chosen.set(new Alternative(idle.in(), flag.readiness,
                    Guards.timeout(Duration.ofSeconds(30))).select()));
            assertEquals(1, chosen.get());
        });
    }

    @Test
    @Timeout(30)
    void selectReadyRunsTheHandlerOfAGuardOrTimesOut() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            Flag never = new Flag();
            Flag raised = new Flag();
            raised.raise();
            AtomicReference<String> ran = new AtomicReference<>();
            Weft.run(s, () -> {
                int timedOut = new Select()
                        .ready(never.readiness, () -> ran.set("never"))
                        .timeout(Duration.ofMillis(5), () -> ran.set("timeout"))
                        .run();
                assertEquals(1, timedOut);
                assertEquals("timeout", ran.get());
                int ready = new Select()
                        .ready(never.readiness, () -> ran.set("never"))
                        .ready(raised.readiness, () -> ran.set("raised"))
                        .run();
                assertEquals(1, ready);
                assertEquals("raised", ran.get());
            });
        });
    }

    /** Any guard is a case: a channel input given to ready() is chosen when a value waits, and not read. */
    @Test
    @Timeout(30)
    void selectReadyTakesAChannelInputAndLeavesItsValue() {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicInteger got = new AtomicInteger();
            Weft.run(s, () -> {
                One2OneChannel<Integer> c = Channel.one2one();
                Weft.spawn(() -> c.out().write(42));
                new Select().ready(c.in(), () -> got.set(c.in().read())).run();
            });
            assertEquals(42, got.get());
        }
    }

    @Test
    @Timeout(30)
    void aThreadSelectsOnAReadinessSignalledBeforeOrDuringItsWait() throws Exception {
        for (int i = 0; i < 500; i++) {
            Flag flag = new Flag();
            Thread raiser = start(flag::raise);
            int chosen = new Alternative(Guards.timeout(Duration.ofSeconds(30)), flag.readiness).select();
            assertEquals(1, chosen);
            raiser.join();
        }
    }

    @Test
    @Timeout(30)
    void aCancelledFiberOrInterruptedThreadStopsWaiting() throws Exception {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            Flag flag = new Flag();
            Weft.run(s, () -> {
                Fiber waiter = Weft.spawn(flag.readiness::await);
                Schedulers.awaitParked(waiter);
                waiter.cancel();
                try {
                    waiter.join();
                    throw new AssertionError("the cancelled wait returned");
                } catch (CancelledException expected) {
                    // and the flag can still be raised, waking nobody
                }
            });
            flag.raise();
        });
        Flag flag = new Flag();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread t = start(() -> {
            try {
                flag.readiness.await();
                outcome.set("returned");
            } catch (CancelledException e) {
                outcome.set(Thread.currentThread().isInterrupted() ? e : "interrupt status lost");
            }
        });
        Schedulers.awaitBlocked(t);
        t.interrupt();
        t.join();
        assertInstanceOf(CancelledException.class, outcome.get());
    }

    /**
     * A readiness whose condition turns true as a waiter checks it after registering, and whose outside party
     * signals right then, from its own thread: the signal takes the registration of a wait that is ending.
     */
    private static Readiness signalledDuringTheCheck() {
        AtomicInteger checks = new AtomicInteger();
        Readiness[] readiness = new Readiness[1];
        readiness[0] = new Readiness(() -> {
            int n = checks.incrementAndGet();
            if (n == 2) { // the check after the registration
                Thread signaller = start(readiness[0]::signal);
                try {
                    signaller.join();
                } catch (InterruptedException e) {
                    throw new AssertionError("interrupted (timed out?) while the signaller ran", e);
                }
            }
            return n >= 2;
        }, "signalled during the check");
        return readiness[0];
    }

    @Test
    @Timeout(30)
    void aThreadsWaitThatEndsAsItIsSignalledLeavesNoWakeUpForItsNextRead() throws Exception {
        One2OneChannel<String> ch = Channel.one2one();
        AtomicReference<Object> read = new AtomicReference<>();
        Thread reader = start(() -> {
            signalledDuringTheCheck().await();
            read.set(ch.in().read());
        });
        Schedulers.awaitBlocked(reader); // in the read: it must wait for the value
        ch.out().write("value");
        reader.join();
        assertEquals("value", read.get());
    }

    @Test
    @Timeout(30)
    void aThreadsWaitThatEndsAsItIsSignalledLeavesNoWakeUpForItsNextTimedSelect() {
        One2OneChannel<String> idle = Channel.one2one();
        signalledDuringTheCheck().await();
        long began = System.nanoTime();
        int chosen = new Alternative(idle.in(), Guards.timeout(Duration.ofMillis(200))).select();
        assertEquals(1, chosen);
        assertTrue(System.nanoTime() - began >= Duration.ofMillis(200).toNanos(), "the select ended before its timeout");
    }

    @Test
    void aGuardThatIsNotWeftsIsRefusedByName() {
        Guard stranger = new Guard() {
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Select().ready(stranger, () -> { }).run());
        assertTrue(e.getMessage().contains("Readiness"), e.getMessage());
    }
}
