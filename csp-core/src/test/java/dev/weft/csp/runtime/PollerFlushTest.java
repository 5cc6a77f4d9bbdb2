package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.spi.Extensions;
import dev.weft.csp.spi.Poller;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Poller#flush}: what a carrier's fibers queued for its I/O (their writes) runs as soon as its batch runs
 * out, before the carrier waits in its poller, so that a reply leaves without waiting for the bookkeeping of the wait.
 */
@Timeout(60)
class PollerFlushTest {
    /**
     * A poller with no I/O of its own: tasks queued for it (as a network library queues writes) run at a flush or
     * a poll, whoever holds it; its waits are parks of its carrier, counted.
     */
    static final class FlushingPoller implements Poller {
        final Thread carrier;
        final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        final AtomicBoolean held = new AtomicBoolean();
        /** The waits its carrier began holding it (carrier only). */
        volatile int awaits;
        private volatile boolean woken;

        FlushingPoller(Thread carrier) {
            this.carrier = carrier;
        }

        @Override
        public void flush() {
            if (held.compareAndSet(false, true)) {
                try {
                    runTasks();
                } finally {
                    held.set(false);
                }
            }
        }

        @Override
        public void pollNow() {
            flush();
        }

        @Override
        public void await(long nanos) {
            if (!held.compareAndSet(false, true)) {
                return; // a helper holds it for a moment: the carrier looks for work again
            }
            try {
                awaits = awaits + 1;
                runTasks();
                if (!woken) { // a wake-up after this look leaves a permit: the park returns at once
                    LockSupport.parkNanos(this, Math.min(nanos, 10_000_000));
                }
                woken = false;
            } finally {
                held.set(false);
            }
        }

        @Override
        public void wakeUp() {
            woken = true;
            LockSupport.unpark(carrier);
        }

        @Override
        public void pollAside() {
            flush();
        }

        @Override
        public void close() {
        }

        private void runTasks() {
            for (Runnable task; (task = tasks.poll()) != null; ) {
                task.run();
            }
        }
    }

    /**
     * Each round a fiber queues a task on its carrier's poller and waits for what the task sends it: the task must
     * run before that carrier's next wait begins (it used to run only inside the wait, at its poll).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void whatAFiberQueuedRunsWhenItsCarrierRunsOutOfFibersBeforeItWaits(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            Extensions.pool(s).plugPollers(FlushingPoller::new);
            One2OneChannel<Integer> c = Channel.one2one(1);
            Weft.run(s, () -> {
                for (int i = 0; i < 5_000; i++) {
                    FlushingPoller mine = (FlushingPoller) WorkerPool.pollerHere();
                    int queuedAt = mine.awaits;
                    int[] ranAt = {-1};
                    int sent = i;
                    mine.tasks.add(() -> {
                        ranAt[0] = mine.awaits;
                        Extensions.offer(c.out(), sent);
                    });
                    assertEquals(sent, c.in().read());
                    assertEquals(queuedAt, ranAt[0], "round " + i + ": the carrier began to wait before it ran what its fiber queued");
                }
            });
        }
    }
}
