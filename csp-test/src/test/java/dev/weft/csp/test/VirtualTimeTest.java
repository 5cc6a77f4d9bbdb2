package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Select;
import dev.weft.csp.Task;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Timeout;

/** Timers, timeouts and timed joins of a {@code @WeftTest} run on the virtual clock: hours take no time. */
class VirtualTimeTest {
    @WeftTest
    @Timeout(10)
    @Pausable
    void aTenMinuteTimeoutFiresAtTenMinutesExactly(WeftTestContext ctx) {
        One2OneChannel<String> replies = Channel.one2one(); // nobody replies
        int chosen = new Alternative(replies.in(), Guards.timeout(Duration.ofMinutes(10))).priSelect();
        assertEquals(1, chosen);
        assertEquals(Duration.ofMinutes(10), ctx.elapsed());
    }

    @WeftTest
    @Timeout(10)
    @Pausable
    void sleepersWakeInTheOrderOfTheirDeadlines(WeftTestContext ctx) {
        List<String> woke = new ArrayList<>();
        Fiber late = Weft.spawn(() -> {
            Timer.sleep(Duration.ofHours(3));
            woke.add("late at " + ctx.elapsed());
        });
        Fiber early = Weft.spawn(() -> {
            Timer.sleep(Duration.ofHours(1));
            woke.add("early at " + ctx.elapsed());
        });
        late.join();
        early.join();
        assertEquals(List.of("early at PT1H", "late at PT3H"), woke);
    }

    @WeftTest
    @Timeout(10)
    @Pausable
    void timedJoinsAndSelectTimeoutsUseTheVirtualClock(WeftTestContext ctx) {
        Fiber sleeper = Weft.spawn(() -> Timer.sleep(Duration.ofDays(1)));
        assertFalse(sleeper.join(Duration.ofMinutes(1)));
        assertEquals(Duration.ofMinutes(1), ctx.elapsed());

        Task<String> slow = Weft.async(() -> {
            Timer.sleep(Duration.ofHours(2));
            return "done";
        });
        assertFalse(slow.join(Duration.ofHours(1)));
        assertEquals(Duration.ofMinutes(61), ctx.elapsed());

        One2OneChannel<String> never = Channel.one2one();
        String[] what = new String[1];
        new Select().read(never.in(), v -> what[0] = v).timeout(Duration.ofSeconds(30), () -> what[0] = "timeout").run();
        assertEquals("timeout", what[0]);
        assertEquals(Duration.ofMinutes(61).plusSeconds(30), ctx.elapsed());
        sleeper.cancel();
        slow.cancel();
    }

    @WeftTest
    @Timeout(10)
    @Pausable
    void theTestAdvancesTheClockAndDeadlinesFollowIt(WeftTestContext ctx) {
        long start = Timer.now();
        assertEquals(ctx.nanoTime(), start);
        ctx.advance(Duration.ofSeconds(5));
        assertEquals(start + Duration.ofSeconds(5).toNanos(), Timer.now());
        Timer.sleepUntil(start + Duration.ofSeconds(4).toNanos()); // passed already
        assertEquals(Duration.ofSeconds(5), ctx.elapsed());
        One2OneChannel<String> never = Channel.one2one();
        assertEquals(0, new Alternative(Guards.deadline(start + Duration.ofSeconds(9).toNanos()), never.in()).select());
        assertEquals(Duration.ofSeconds(9), ctx.elapsed());
    }

    @WeftTest
    @Timeout(10)
    @Pausable
    void fiberDumpsTellTimersOnTheVirtualClock(WeftTestContext ctx) {
        Fiber sleeper = Weft.spawn(() -> Timer.sleep(Duration.ofHours(1)));
        Timer.sleep(Duration.ofMinutes(15)); // meanwhile the sleeper runs and sleeps
        String dump = ctx.scheduler().dumpFibers();
        assertTrue(dump.contains("timer due in 2700000 ms"), dump);
        sleeper.cancel();
    }

    /**
     * While a blocking call is in flight, a party outside the run may still wake a fiber: the clock stands still
     * (else the one-second timeout would win at once, whatever the real call takes).
     */
    @WeftTest
    @Timeout(10)
    @Pausable
    void theClockStandsStillWhileABlockingCallIsInFlight(WeftTestContext ctx) {
        One2OneChannel<String> result = Channel.one2one();
        Callable<String> slowDisk = () -> {
            Thread.sleep(50); // real work outside the run
            return "read";
        };
        Weft.spawn(() -> result.out().write(Weft.blocking(slowDisk)));
        String[] what = new String[1];
        new Select().read(result.in(), v -> what[0] = v).timeout(Duration.ofSeconds(1), () -> what[0] = "timeout").run();
        assertEquals("read", what[0]);
        assertEquals(Duration.ZERO, ctx.elapsed());
    }
}
