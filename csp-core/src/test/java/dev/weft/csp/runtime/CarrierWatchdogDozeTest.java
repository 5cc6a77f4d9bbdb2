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
                Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1))); // the carriers run, then wait for work
                while (!CarrierWatchdog.isDozing()) { // every carrier waits: the watchdog sleeps
                    Thread.yield();
                }
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

    @Test
    @Timeout(60)
    void aCarrierWokenForEachMessageDoesNotEndADozeEachTime() throws Exception {
        int messages = 2000;
        try (Scheduler s = Scheduler.create(1)) {
            One2OneChannel<Integer> ping = Channel.one2one();
            One2OneChannel<Integer> pong = Channel.one2one();
            Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1))); // the carrier started, then waits for work
            long end = System.nanoTime() + PATIENCE_NANOS;
            while (!CarrierWatchdog.isDozing() && System.nanoTime() - end < 0) {
                Thread.yield();
            }
            assertTrue(CarrierWatchdog.isDozing(), "the watchdog never dozed beside an idle carrier");
            long before = CarrierWatchdog.dozesEnded();
            Thread echo = new Thread(() -> Weft.run(s, () -> {
                for (int i = 0; i < messages; i++) {
                    pong.out().write(ping.in().read());
                }
            }));
            echo.start();
            int stalls = 0; // round trips that took a millisecond or more: a loaded machine stalled a thread
            for (int i = 0; i < messages; i++) { // each message wakes the carrier, which waits again for the next
                long start = System.nanoTime();
                ping.out().write(i);
                assertEquals(i, pong.in().read());
                if (System.nanoTime() - start >= 1_000_000) {
                    stalls++;
                }
            }
            echo.join();
            long ended = CarrierWatchdog.dozesEnded() - before;
            // A doze needs a whole round (5 ms or more) with no slice: the first message ends the one above, and
            // only a stall that long lets the watchdog doze again. (Ending a doze at every wake-up that finds the
            // watchdog dozing, it ended over 100 on a quiet machine.)
            assertTrue(ended <= messages / 100 + stalls, messages + " wake-ups of the carrier ended " + ended
                    + " dozes, with " + stalls + " round trips of a millisecond or more");
        }
    }
}
