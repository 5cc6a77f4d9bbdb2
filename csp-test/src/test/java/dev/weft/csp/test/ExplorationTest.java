package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.CSProcess;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Seeded interleavings: each seed its own, the same every time; failures, deadlocks and livelocks name their seed. */
class ExplorationTest {
    private static final Set<Long> SEEDS_SEEN = new ConcurrentSkipListSet<>();

    /** Three writers racing on one channel, a reader choosing between two buffered ones: the order it saw. */
    private static List<String> trace(Explorer explorer, long seed) {
        List<String> seen = new ArrayList<>();
        ScheduleFailure f = explorer.run(seed, ctx -> {
            Any2OneChannel<String> c = Channel.any2one();
            One2OneChannel<String> left = Channel.one2one(1);
            One2OneChannel<String> right = Channel.one2one(1);
            left.out().write("left");
            right.out().write("right");
            Alternative both = new Alternative(left.in(), right.in());
            seen.add(both.select() == 0 ? left.in().read() : right.in().read());
            CSProcess[] writers = new CSProcess[3];
            for (int i = 0; i < writers.length; i++) {
                String name = "w" + i;
                writers[i] = () -> {
                    for (int k = 0; k < 3; k++) {
                        c.out().write(name);
                    }
                };
            }
            Weft.spawn(() -> Parallel.run(writers));
            for (int k = 0; k < 9; k++) {
                seen.add(c.in().read());
            }
        });
        assertNull(f);
        return seen;
    }

    @Test
    @Timeout(60)
    void aSeedGivesTheSameInterleavingEveryTimeAndSeedsDiffer() {
        Explorer explorer = new Explorer(0.3, Explorer.DEFAULT_STEP_BUDGET);
        Set<List<String>> distinct = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            List<String> first = trace(explorer, seed);
            assertEquals(first, trace(explorer, seed), "seed " + seed);
            distinct.add(first);
        }
        assertTrue(distinct.size() > 5, "20 seeds gave only " + distinct.size() + " interleavings: " + distinct);
    }

    @Test
    @Timeout(60)
    void aFailingSeedIsReportedAndReplaysTheSameFailure() {
        Explorer explorer = new Explorer(0.3, Explorer.DEFAULT_STEP_BUDGET);
        TestProcess w2First = ctx -> {
            Any2OneChannel<String> c = Channel.any2one();
            for (int i = 0; i < 3; i++) {
                String name = "w" + i;
                Weft.spawn(() -> c.out().write(name));
            }
            String first = c.in().read();
            c.in().read();
            c.in().read();
            assertTrue(!first.equals("w2"), "w2 went first");
        };
        ScheduleFailure found = explorer.explore(0, 100, w2First);
        assertNotNull(found, "no seed of 100 let w2 go first");
        assertTrue(found.getMessage().contains("seed = " + found.seed()), found.getMessage());
        ScheduleFailure replayed = explorer.run(found.seed(), w2First);
        assertNotNull(replayed);
        assertEquals(found.getCause().getMessage(), replayed.getCause().getMessage());
    }

    @Test
    @Timeout(60)
    void aDeadlockFailsTheRunWithTheReportAndTheSeed() {
        ScheduleFailure f = new Explorer().run(5, ctx -> {
            One2OneChannel<String> a = Channel.one2one();
            One2OneChannel<String> b = Channel.one2one();
            Weft.spawn(() -> b.out().write(a.in().read()));
            a.out().write(b.in().read()); // each waits for the other first
        });
        assertNotNull(f);
        assertTrue(f.deadlocked(), f.getMessage());
        assertTrue(f.getMessage().contains("seed 5") && f.getMessage().contains("deadlock"), f.getMessage());
    }

    @Test
    @Timeout(60)
    void aLivelockSpendsTheStepBudgetAndFailsWithAFiberDump() {
        ScheduleFailure f = new Explorer(0, 10_000).run(3, ctx -> {
            One2OneChannel<Integer> ping = Channel.one2one();
            One2OneChannel<Integer> pong = Channel.one2one();
            Weft.spawn(() -> pingPong(ping, pong));
            ping.out().write(0);
            pingPong(pong, ping);
        });
        assertNotNull(f);
        assertTrue(f.budgetSpent(), f.getMessage());
        String report = f.getCause().getMessage();
        assertTrue(report.contains("10000 scheduling steps") && report.contains("pingPong"), report);
    }

    @Pausable
    private static void pingPong(One2OneChannel<Integer> in, One2OneChannel<Integer> out) {
        for (;;) {
            out.out().write(in.in().read() + 1); // never ends: the pair keeps each other busy for ever
        }
    }

    @WeftTest(runs = 5)
    @Timeout(10)
    @Pausable
    void exploringRunsTheBodyOncePerSeed(WeftTestContext ctx) {
        SEEDS_SEEN.add(ctx.seed());
    }

    @WeftTest(seed = 42)
    @Timeout(10)
    @Pausable
    void aSeedReplaysThatSeedOnly(WeftTestContext ctx) {
        assertEquals(42, ctx.seed());
    }

    @Test
    void theSeedPropertyReplacesTheAnnotationsChoice() throws Exception {
        WeftTest explore = getClass().getDeclaredMethod("exploringRunsTheBodyOncePerSeed", WeftTestContext.class)
                .getAnnotation(WeftTest.class);
        WeftTest replay = getClass().getDeclaredMethod("aSeedReplaysThatSeedOnly", WeftTestContext.class)
                .getAnnotation(WeftTest.class);
        assertNull(WeftTestExtension.replaySeed(explore, null));
        assertEquals(42L, WeftTestExtension.replaySeed(replay, " "));
        assertEquals(7L, WeftTestExtension.replaySeed(explore, "7"));
        assertEquals(-3L, WeftTestExtension.replaySeed(replay, " -3 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WeftTestExtension.replaySeed(explore, "seven"));
        assertTrue(e.getMessage().contains("-Dweft.test.seed must be a number, got seven"), e.getMessage());
    }

    @AfterAll
    static void everySeedRan() {
        assertEquals(Set.of(0L, 1L, 2L, 3L, 4L), SEEDS_SEEN);
    }
}
