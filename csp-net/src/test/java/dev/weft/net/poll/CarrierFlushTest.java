package dev.weft.net.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CarrierLoop#flush}: what was queued on a carrier's loop (a link's drain) runs at once, without a poll of its
 * sockets, when its carrier runs out of fibers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CarrierFlushTest {
    /**
     * A fiber queues a task on its carrier's loop and flushes it, as its carrier does when its batch runs out: the
     * task has run, and the loop has not polled. On two carriers the other one may hold the loop for a moment
     * (polling aside for a carrier held in its slice, which a loaded machine can make last): it runs the task
     * itself before it lets go.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aFlushRunsWhatWasQueuedWithoutPolling(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            CarrierLoops.of(s);
            Weft.run(s, () -> {
                for (int i = 0; i < 2_000; i++) {
                    CarrierLoop loop = CarrierLoops.here();
                    long polls = loop.polls();
                    AtomicInteger ran = new AtomicInteger();
                    loop.execute(ran::incrementAndGet);
                    loop.flush();
                    if (workers == 1) {
                        assertEquals(1, ran.get(), "round " + i + ": the flush left the task queued");
                        assertEquals(polls, loop.polls(), "round " + i + ": the flush polled");
                    } else {
                        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (ran.get() == 0 && System.nanoTime() - giveUp < 0) {
                            Thread.onSpinWait(); // the other carrier holds the loop: it runs the task as it lets go
                        }
                        assertEquals(1, ran.get(), "round " + i + ": the task never ran");
                    }
                }
            });
        }
    }
}
