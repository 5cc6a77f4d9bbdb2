package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.ChannelImpl;
import dev.weft.csp.internal.FiberLifecycle;
import dev.weft.csp.runtime.LotProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A channel's lock under contention from fibers (whose carriers park while they wait) and plain threads:
 * it excludes, its flags survive the waiters' bit, and every party gets through.
 */
class ChannelLockTest {
    private static final int EACH = 4;

    @Test
    @Timeout(120)
    void excludesFibersOnCarriersAndPlainThreads() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 5; round++) {
                ChannelImpl<?> c = (ChannelImpl<?>) Channel.any2any();
                int flags = c.state;
                long[] count = new long[1];
                AtomicReference<String> overlap = new AtomicReference<>();
                AtomicInteger finished = new AtomicInteger();
                AtomicInteger heldForWaiters = new AtomicInteger();
                Runnable[] bodies = new Runnable[2 * EACH];
                for (int i = 0; i < bodies.length; i++) {
                    int id = i;
                    bodies[i] = () -> {
                        for (int n = 0; n < 5_000; n++) {
                            c.lock();
                            long seen = count[0];
                            if (n % 250 == id) {
                                if (holdUntilAWaiterParks(c, finished, bodies.length)) {
                                    heldForWaiters.incrementAndGet();
                                }
                            } else if ((n & 31) == 0) {
                                Thread.yield(); // a holder descheduled under the lock
                            }
                            if (count[0] != seen) {
                                overlap.set("another holder changed the count");
                            }
                            count[0] = seen + 1;
                            c.unlock();
                        }
                        finished.incrementAndGet();
                    };
                }
                List<Fiber> fibers = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < EACH; i++) {
                    Runnable body = bodies[i];
                    fibers.add(FiberLifecycle.start(body::run, s.pool, null));
                    Thread t = new Thread(bodies[EACH + i]);
                    t.start();
                    threads.add(t);
                }
                for (Fiber f : fibers) {
                    f.join();
                }
                joinAll(threads);
                assertNull(overlap.get());
                assertEquals(2L * EACH * 5_000, count[0]);
                assertTrue(heldForWaiters.get() > 0, "no waiter ever parked");
                assertEquals(flags, c.state, "the lock is free, nobody waits, the flags are intact");
            }
        }
    }

    @Test
    @Timeout(120)
    void any2anyLosesNothingWithFibersAndThreadsOnBothEnds() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 5; round++) {
                Any2AnyChannel<Long> ch = Channel.any2any();
                int flags = ((ChannelImpl<?>) ch).state;
                int perWriter = 5_000;
                AtomicLong sum = new AtomicLong();
                List<Fiber> fibers = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < EACH; i++) {
                    long base = (long) i * perWriter;
                    fibers.add(FiberLifecycle.start(() -> {
                        for (int n = 0; n < perWriter; n++) {
                            ch.out().write(base + n);
                        }
                    }, s.pool, null));
                    Thread reader = new Thread(() -> {
                        for (int n = 0; n < perWriter / 2; n++) {
                            sum.addAndGet(ch.in().read());
                        }
                    });
                    reader.start();
                    threads.add(reader);
                    fibers.add(FiberLifecycle.start(() -> {
                        for (int n = 0; n < perWriter / 2; n++) {
                            sum.addAndGet(ch.in().read());
                        }
                    }, s.pool, null));
                }
                for (Fiber f : fibers) {
                    f.join();
                }
                joinAll(threads);
                long total = (long) EACH * perWriter;
                assertEquals(total * (total - 1) / 2, sum.get(), "every value read exactly once");
                assertEquals(flags, ((ChannelImpl<?>) ch).state, "the lock is free, nobody waits");
            }
        }
    }

    @Test
    @Timeout(30)
    void poisonAndAReadWaitingForTheLockBothProceedWhenItIsFreed() {
        Any2AnyChannel<String> ch = Channel.any2any();
        ChannelImpl<?> c = (ChannelImpl<?>) ch;
        c.lock();
        AtomicReference<Throwable> readOutcome = new AtomicReference<>();
        Thread poisoner = new Thread(() -> ch.out().poison());
        Thread reader = new Thread(() -> {
            try {
                ch.in().read();
            } catch (Throwable t) {
                readOutcome.set(t);
            }
        });
        poisoner.start();
        LotProbe.awaitParked(poisoner);
        reader.start();
        LotProbe.awaitParked(reader);
        assertTrue((c.state & ChannelImpl.WAITERS) != 0);
        c.unlock();
        joinAll(List.of(poisoner, reader));
        assertTrue(readOutcome.get() instanceof PoisonException, String.valueOf(readOutcome.get()));
        assertEquals(0, c.state & (ChannelImpl.LOCKED | ChannelImpl.WAITERS));
    }

    /**
     * Holds on (the lock held) until another party has set the waiters bit; not for ever, as the others may
     * all have finished, or be fibers queued behind this one on its carrier.
     */
    private static boolean holdUntilAWaiterParks(ChannelImpl<?> c, AtomicInteger finished, int parties) {
        for (int spins = 0; (c.state & ChannelImpl.WAITERS) == 0; spins++) {
            if (finished.get() == parties - 1 || spins == 1_000_000) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private static void joinAll(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError("interrupted (timed out?)", e);
            }
        }
    }
}
