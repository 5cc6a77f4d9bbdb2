package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;

/** A test that times out shows what each fiber waited on, before JUnit interrupts it. */
class FiberDumpOnTimeoutTest {
    @Test
    @Timeout(60)
    void aTimedOutTestWritesTheFibersOfEverySchedulerBeforeItIsInterrupted() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            EngineTestKit.engine("junit-jupiter").selectors(selectClass(Hangs.class)).execute()
                    .testEvents().assertStatistics(s -> s.started(1).failed(1));
        } finally {
            System.setErr(err);
        }
        String dump = captured.toString(StandardCharsets.UTF_8);
        assertTrue(dump.contains("waitsForAWordThatNeverComes() in " + Hangs.class.getName() + " timed out"), dump);
        assertTrue(dump.contains("[the-reader]\" parked, waiting on the input of channel"), dump);
        assertTrue(dump.indexOf("timed out") < dump.indexOf("[the-reader]"), "the dump comes before the interrupt");
    }

    /** Run by the test kit above only: a run whose reader waits for a word that its plain thread never writes. */
    @ExtendWith(FiberDumpOnTimeout.class)
    static class Hangs {
        @Test
        @Timeout(value = 300, unit = TimeUnit.MILLISECONDS)
        void waitsForAWordThatNeverComes() {
            One2OneChannel<String> never = Channel.one2one(); // made by this thread: no deadlock can be reported
            try (Scheduler s = Scheduler.create(1)) {
                Weft.run(s, () -> Weft.spawn("the-reader", () -> never.in().read()).join());
            }
        }
    }
}
