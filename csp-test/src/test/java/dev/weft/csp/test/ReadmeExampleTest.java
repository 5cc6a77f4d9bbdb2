package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Select;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The csp-test examples of docs/testing.md, compiled and run: if this breaks, that page is wrong. */
class ReadmeExampleTest {
    @WeftTest
    @Timeout(10)
    @Pausable
    void aSilentBankTimesOutAfterTenMinutes(WeftTestContext ctx) {
        One2OneChannel<String> bank = Channel.one2one();          // the bank never answers
        String[] outcome = new String[1];
        new Select()
                .read(bank.in(), reply -> outcome[0] = reply)
                .timeout(Duration.ofMinutes(10), () -> outcome[0] = "timed out")
                .run();
        assertEquals("timed out", outcome[0]);
        assertEquals(Duration.ofMinutes(10), ctx.elapsed());      // virtual time: the test takes milliseconds
    }

    @Test
    @Timeout(60)
    void theCountingExampleFailsUnderTheSeedTheReadmeShowsAndReplays() { // its body is Bugs.lostUpdate
        Explorer explorer = new Explorer(0.2, Explorer.DEFAULT_STEP_BUDGET); // @WeftTest(runs = 200, preemption = 0.2)
        ScheduleFailure found = explorer.explore(0, 200, ctx -> Bugs.lostUpdate());
        assertNotNull(found);
        assertEquals(0, found.seed(), found.getMessage());
        assertEquals("the run under seed 0 failed; replay it with @WeftTest(seed = 0) or -Dweft.test.seed=0:"
                + " org.opentest4j.AssertionFailedError: expected: <6> but was: <3>", found.getMessage());
        assertEquals(found.getMessage(), explorer.run(0, ctx -> Bugs.lostUpdate()).getMessage());
    }
}
