package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import dev.weft.csp.Readiness;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.spi.Extensions;
import dev.weft.csp.spi.Poller;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * A server's shape: a carrier woken by its poll at every rotation for all its connections (sockets with
 * traffic), and new fibers spawned meanwhile (connections just accepted). The invariant under test (see
 * {@code Worker.polledSinceRotation}): a waiting fiber runs after at most about as many polled fibers on its
 * carrier as there are waiting fibers ahead of it, plus a turn of them.
 *
 * <p>The pool has two carriers (the polled queue and the migration window exist only where fibers can be stolen),
 * but the second is kept in one long computing slice: no fiber moves between them, so the count is exact. It is
 * counted in polled fibers, never in time: a loaded machine that takes the carrier's processor away stops the
 * count too.
 */
@Timeout(120)
class PolledFairnessTest {
    /** A turn of polled fibers well above a rotation's fixed budget of dispatches (256). */
    private static final int CONNECTIONS = 1_000;
    private static final int NEW_FIBERS = 4_000;

    /** Checksums of the new fibers' first requests (kept, so that the work is done). */
    private static final long[] checksums = new long[NEW_FIBERS];

    /**
     * A microsecond or so of work, as a new connection's first request: a turn of a few hundred new fibers then
     * lasts longer than the scheduler's shortest time between polls (20 us), so each turn is followed by one of
     * polled fibers, as in a server.
     */
    private static void firstRequest(int fiber) {
        long h = fiber;
        for (int i = 0; i < 1_000; i++) {
            h = h * 31 + i;
        }
        checksums[fiber] = h;
    }

    /** A poller whose every poll finds all its connections ready (their sockets always have bytes). */
    static final class BusyPoller implements Poller {
        final List<Connection> connections = new CopyOnWriteArrayList<>();
        final Thread carrier;

        BusyPoller(Thread carrier) {
            this.carrier = carrier;
        }

        @Override
        public void pollNow() {
            for (Connection c : connections) {
                c.bytes = true;
                c.readable.signal(); // on this carrier: its fiber joins the carrier's polled queue
            }
        }

        @Override
        public void await(long nanos) {
            if (connections.isEmpty()) {
                LockSupport.parkNanos(Math.min(nanos, 1_000_000));
            } else {
                pollNow();
            }
        }

        @Override
        public void wakeUp() {
            LockSupport.unpark(carrier);
        }

        @Override
        public void pollAside() {
            // a helper never polls for it: the carriers keep themselves busy here
        }

        @Override
        public void close() {
        }
    }

    static final class Connection {
        volatile boolean bytes;
        final Readiness readable = new Readiness(() -> bytes, this);
    }

    @RepeatedTest(5)
    void newFibersStartAsFastAsTheCarrierServesItsSockets() {
        AtomicLong served = new AtomicLong(); // polled fibers run
        AtomicInteger started = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean burstTaken = new AtomicBoolean();
        AtomicReference<Thread> computing = new AtomicReference<>(); // the carrier kept in one long slice
        AtomicInteger ranBesideComputation = new AtomicInteger();
        long[] servedAtBurst = new long[1];
        long[] servedAtStart = new long[NEW_FIBERS]; // by new fiber: polled fibers run when it started
        try (Scheduler s = Scheduler.create(2)) {
            Extensions.pool(s).plugPollers(BusyPoller::new);
            Weft.run(s, () -> {
                Weft.spawn(() -> {
                    computing.set(Thread.currentThread());
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                });
                while (computing.get() == null) { // then the connections run on the other carrier, all of them
                    Fiber.yield();
                }
                for (int i = 0; i < CONNECTIONS; i++) {
                    Weft.spawn(() -> {
                        Connection c = new Connection();
                        ((BusyPoller) WorkerPool.pollerHere()).connections.add(c);
                        while (!stop.get()) {
                            c.readable.await();
                            c.bytes = false;
                            if (served.incrementAndGet() >= 20L * CONNECTIONS && burstTaken.compareAndSet(false, true)) {
                                // as an acceptor would: a burst of new fibers from a carrier busy with its sockets
                                servedAtBurst[0] = served.get();
                                for (int n = 0; n < NEW_FIBERS; n++) {
                                    int fiber = n;
                                    Weft.spawn(() -> {
                                        servedAtStart[fiber] = served.get();
                                        firstRequest(fiber);
                                        if (Thread.currentThread() == computing.get()) {
                                            ranBesideComputation.incrementAndGet();
                                        }
                                        if (started.incrementAndGet() == NEW_FIBERS) {
                                            stop.set(true); // the connections end at their next poll
                                        }
                                    });
                                }
                            }
                        }
                    });
                }
            });
        }
        long lastStart = 0;
        for (long at : servedAtStart) {
            lastStart = Math.max(lastStart, at);
        }
        // Taken in at a fixed budget of 256 dispatches per turn of 1,000 polled fibers, the new fibers wait 16
        // turns for the last; taken in as many as the polled fibers of the last turn, 4 or 5.
        long servedMeanwhile = lastStart - servedAtBurst[0];
        assertTrue(servedMeanwhile <= NEW_FIBERS + 2L * CONNECTIONS, "while " + NEW_FIBERS + " new fibers waited to "
                + "start, their carrier ran polled fibers " + servedMeanwhile + " times (" + CONNECTIONS + " connections)");
        assertEquals(0, ranBesideComputation.get(), "new fibers ran on the computing carrier: the count is not theirs");
    }
}
