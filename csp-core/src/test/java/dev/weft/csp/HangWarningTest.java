package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run that hangs is never silent: when its fibers all stay blocked and no deadlock can be proved because a
 * plain thread still holds what they wait on, one warning says so, with the fiber dump and the reason.
 */
class HangWarningTest {
    @Test
    @Timeout(60)
    void channelsMadeBeforeWeftRunThatDeadlockAreWarnedOfOnce() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = Scheduler.builder().workers(workers).hangWarning(Duration.ofMillis(300)).build();
                 LogCapture log = new LogCapture()) {
                AtomicReference<Throwable> ended = new AtomicReference<>();
                AtomicReference<String> channels = new AtomicReference<>();
                Thread app = new Thread(() -> {
                    // The natural layout: channels made in main, both processes read first.
                    One2OneChannel<Integer> ab = Channel.one2one(), ba = Channel.one2one();
                    channels.set(ab + " " + ba);
                    try {
                        Weft.run(s, () -> Parallel.run(
                                () -> ba.out().write(ab.in().read()),
                                () -> ab.out().write(ba.in().read())));
                    } catch (Throwable t) {
                        ended.set(t);
                    }
                }, "app-main");
                app.start();
                LogRecord r = log.await("seems to hang", Duration.ofSeconds(30));
                app.interrupt(); // what a user would do: the run is cancelled and ends
                app.join();
                assertTrue(ended.get() instanceof CancelledException, String.valueOf(ended.get()));
                assertEquals(Level.WARNING, r.getLevel());
                String m = r.getMessage();
                assertTrue(m.contains("scheduler " + s.name()), m);
                assertTrue(m.contains("3 fibers have been blocked"), m); // main and its two branches
                assertTrue(m.contains("a plain thread made"), m);
                for (String channel : channels.get().split(" ")) {
                    assertTrue(m.contains(channel), channel + " in " + m);
                }
                assertTrue(m.contains("waiting on the input of channel #"), "the fiber dump: " + m);
                assertTrue(m.contains("HangWarningTest"), "where they wait: " + m);
                assertEquals(1, log.containing("seems to hang").size(), "once per hang");
            }
        }
    }

    @Test
    @Timeout(60)
    void aDeadlockThatCanBeProvedIsReportedNotWarnedOf() {
        try (Scheduler s = Scheduler.builder().workers(2).hangWarning(Duration.ofMillis(1)).build();
             LogCapture log = new LogCapture()) {
            assertThrows(DeadlockException.class, () -> Weft.run(s, () -> {
                One2OneChannel<Integer> ab = Channel.one2one(), ba = Channel.one2one();
                Parallel.run(() -> ba.out().write(ab.in().read()), () -> ab.out().write(ba.in().read()));
            }));
            assertEquals(0, log.containing("seems to hang").size(), log.messages()::toString);
        }
    }
}
