package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The carrier watchdog sleeps while every carrier waits for work, and a carrier that wakes wakes it: a slice
 * that blocks its carrier after a doze is reported, though the doze would last an hour. A carrier that waits
 * between messages, as one serving requests does, does not wake it at each message.
 */
class CarrierWatchdogDozeTest {
    private static final long PATIENCE_NANOS = Duration.ofSeconds(20).toNanos();

    static void sleepUntil(AtomicBoolean seen) {
        long end = System.nanoTime() + PATIENCE_NANOS;
        while (!seen.get() && System.nanoTime() - end < 0) {
            try {
                Thread.sleep(10); // blocks the carrier: what the watchdog is for
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Test
    @Timeout(120)
    void aWatchdogThatDozedReportsTheNextBlockedCarrier() {
        Logger weft = Logger.getLogger("dev.weft.csp");
        AtomicBoolean seen = new AtomicBoolean();
        String[] fiber = new String[1];
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                String m = r.getMessage();
                if (m != null && fiber[0] != null && m.contains("[" + fiber[0] + "]")) {
                    seen.set(true);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        weft.addHandler(handler);
        long doze = CarrierWatchdog.dozeNanos;
        CarrierWatchdog.dozeNanos = Duration.ofHours(1).toNanos(); // only a carrier's wake-up ends the doze
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 3; round++) {
                awaitDozeAfterARun(s);
                seen.set(false);
                fiber[0] = "blocker-" + round;
                Weft.run(s, () -> Weft.spawn(fiber[0], () -> sleepUntil(seen)).join());
                assertTrue(seen.get(), "no warning about " + fiber[0] + " after the watchdog dozed");
            }
        } finally {
            CarrierWatchdog.dozeNanos = doze;
            weft.removeHandler(handler);
        }
    }

    /** Starts {@code s}'s carriers with a short run and waits until the watchdog dozes beside them. */
    private static void awaitDozeAfterARun(Scheduler s) {
        Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1))); // the carriers start, then wait for work
        long end = System.nanoTime() + PATIENCE_NANOS;
        while (!CarrierWatchdog.isDozing() && System.nanoTime() - end < 0) {
            Thread.yield();
        }
        assertTrue(CarrierWatchdog.isDozing(), "the watchdog never dozed beside idle carriers");
    }

    @Test
    @Timeout(60)
    void aDozeEndsOnceHoweverManyCarriersWake() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 5; round++) {
                awaitDozeAfterARun(s);
                long before = CarrierWatchdog.dozesEnded();
                for (int i = 0; i < 100; i++) { // carriers waking one after another before the watchdog runs
                    CarrierWatchdog.carrierWoke();
                }
                assertEquals(1, CarrierWatchdog.dozesEnded() - before, "wake-ups that ended one doze");
            }
        }
    }

    @Test
    @Timeout(60)
    void aCarrierWokenForEachMessageDoesNotEndADozeEachTime() throws Exception {
        long shortestRound = 5_000_000; // the watchdog's rounds last this long at least
        try (Scheduler s = Scheduler.create(1)) {
            One2OneChannel<Integer> ping = Channel.one2one();
            One2OneChannel<Integer> pong = Channel.one2one();
            awaitDozeAfterARun(s);
            long before = CarrierWatchdog.dozesEnded();
            Thread echo = new Thread(() -> Weft.run(s, () -> {
                for (int m = ping.in().read(); m >= 0; m = ping.in().read()) {
                    pong.out().write(m);
                }
            }));
            long start = System.nanoTime();
            long last = start;
            int gaps = 0; // times this thread saw no reply for a round or more: a loaded machine stalled a thread
            echo.start();
            int messages = 0;
            // each message wakes the carrier, which waits again for the next; dozes at every round would end
            // 20 or more dozes in the time this runs
            for (; messages < 2000 || last - start < 25 * shortestRound; messages++) {
                ping.out().write(messages);
                assertEquals(messages, pong.in().read());
                long now = System.nanoTime();
                if (now - last >= shortestRound) {
                    gaps++;
                }
                last = now;
            }
            ping.out().write(-1);
            echo.join();
            long ended = CarrierWatchdog.dozesEnded() - before;
            // A doze needs a whole round with no slice: the first message ends the one above, and only a gap
            // that long between two replies lets the watchdog doze again.
            assertTrue(ended <= 1 + gaps, messages + " wake-ups of the carrier ended " + ended
                    + " dozes, with " + gaps + " gaps of a round or more between two replies");
        }
    }
}
