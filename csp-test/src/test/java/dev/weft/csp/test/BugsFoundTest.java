package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exploration finds each of {@link Bugs} within a budget of runs, and the failing seed replays the failure;
 * the fixed order that the first seed gives is not enough on its own.
 */
class BugsFoundTest {
    /** Runs allowed to find a bug: well above the medians {@link RunsToFind} measures. */
    private static final int BUDGET = 300;

    static List<Bugs.Bug> bugs() {
        return Bugs.ALL;
    }

    @ParameterizedTest
    @MethodSource("bugs")
    @Timeout(120)
    void explorationFindsTheBugAndItsSeedReplaysIt(Bugs.Bug bug) {
        Explorer explorer = new Explorer(0.2, Explorer.DEFAULT_STEP_BUDGET);
        TestProcess body = ctx -> bug.process().run();
        ScheduleFailure found = explorer.explore(0, BUDGET, body);
        assertNotNull(found, bug + " not found in " + BUDGET + " runs");
        assertNotNull(explorer.run(found.seed(), body), "seed " + found.seed() + " does not replay " + bug);
        if (found.runs() > 1) {
            assertNull(explorer.run(found.seed() - 1, body), "the seed before the failing one passed, and still does");
        }
    }
}
