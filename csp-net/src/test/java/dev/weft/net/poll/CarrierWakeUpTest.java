package dev.weft.net.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.spi.Extensions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wake-ups around a carrier that waits in its loop's epoll: a fiber made runnable after the carrier last looked
 * at its queues, by whoever (the carrier's own loop, another carrier's, a plain thread), must run, never wait
 * with the carrier. A lost one hangs its round until the test's timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CarrierWakeUpTest {
    /**
     * A fiber queues a task on its own carrier's loop and ends; the task wakes a fiber waiting on a channel. The
     * carrier, having nothing left to run, runs the task as its batch runs out (its flush), or, if another carrier
     * held the loop then, as it begins its wait in the loop, before it would block in epoll_wait: the fiber it woke
     * must keep it from blocking. On one carrier this happens every round.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aFiberWokenByItsCarriersLoopAsTheCarrierBeginsToWaitRuns(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            CarrierLoops.of(s);
            int rounds = 2_000;
            One2OneChannel<Integer> c = Channel.one2one(1);
            Weft.run(s, () -> {
                for (int i = 0; i < rounds; i++) {
                    int sent = i;
                    Parallel.run(
                            () -> assertEquals(sent, c.in().read()),
                            () -> CarrierLoops.here().execute(() -> assertTrue(Extensions.offer(c.out(), sent))));
                }
            });
        }
    }

    /**
     * A plain thread has each carrier's loop in turn wake a fiber that waits on a channel: the fiber is made
     * runnable on whichever carrier drives that loop, which may be waiting in epoll_wait or about to.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void fibersWokenByAnyCarriersLoopRun(int workers) throws Exception {
        try (Scheduler s = Scheduler.create(workers)) {
            CarrierLoops loops = CarrierLoops.of(s);
            int rounds = 3_000;
            One2OneChannel<Integer> values = Channel.one2one(1);
            One2OneChannel<Integer> taken = Channel.one2one();
            Thread waker = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    int sent = i;
                    loops.loop(i % workers).execute(() -> assertTrue(Extensions.offer(values.out(), sent)));
                    assertEquals(sent, taken.in().read()); // one at a time: the buffer never overflows
                }
            }, "waker");
            waker.start();
            Weft.run(s, () -> {
                for (int i = 0; i < rounds; i++) {
                    int v = values.in().read();
                    assertEquals(i, v);
                    taken.out().write(v);
                }
            });
            waker.join();
        }
    }
}
