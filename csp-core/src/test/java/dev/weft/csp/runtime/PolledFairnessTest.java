package dev.weft.csp.runtime;

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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * A server's shape on two carriers: many fibers woken by their carrier's poll at every rotation (connections with
 * traffic), and new fibers spawned meanwhile (connections just accepted). A new fiber must start within a few of
 * its carrier's rounds of polled work, not wait behind dozens of them.
 */
@Timeout(120)
class PolledFairnessTest {
    private static final int CONNECTIONS = 400;
    private static final int NEW_FIBERS = 1_000;

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
        AtomicLongArray served = new AtomicLongArray(2); // polled fibers run, by carrier
        AtomicBoolean burstTaken = new AtomicBoolean();
        AtomicLong started = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long[] burst = new long[3]; // served on the spawner's carrier before the burst, after it; its connections
        try (Scheduler s = Scheduler.create(2)) {
            Extensions.pool(s).plugPollers(BusyPoller::new);
            Weft.run(s, () -> {
                for (int i = 0; i < CONNECTIONS; i++) {
                    Weft.spawn(() -> {
                        Connection c = new Connection();
                        BusyPoller mine = (BusyPoller) WorkerPool.pollerHere();
                        mine.connections.add(c);
                        while (!stop.get()) {
                            c.readable.await();
                            c.bytes = false;
                            int home = carrier();
                            served.incrementAndGet(home);
                            if (served.get(0) + served.get(1) >= 20L * CONNECTIONS && burstTaken.compareAndSet(false, true)) {
                                // as an acceptor would: a burst of new fibers from a carrier busy with its sockets
                                burst[0] = served.get(home);
                                burst[2] = mine.connections.size();
                                for (int n = 0; n < NEW_FIBERS; n++) {
                                    Weft.spawn(() -> {
                                        if (started.incrementAndGet() == NEW_FIBERS) {
                                            burst[1] = served.get(home);
                                        }
                                    });
                                }
                            }
                        }
                    });
                }
                while (started.get() < NEW_FIBERS) {
                    Fiber.yield();
                }
                stop.set(true);
            });
        }
        // Taken in at 8-32 a rotation, 1,000 new fibers wait while the carrier serves its connections some 30 times
        // over; taken in as many as the polled fibers run since the last intake, they start about as fast as
        // the connections are served (a round or two more to begin).
        long servedMeanwhile = burst[1] - burst[0];
        assertTrue(servedMeanwhile <= 2 * NEW_FIBERS + 2 * burst[2], "while " + NEW_FIBERS + " new fibers waited to "
                + "start, their carrier ran polled fibers " + servedMeanwhile + " times (" + burst[2] + " connections)");
    }

    /** The index of the calling fiber's carrier. */
    private static int carrier() {
        return Thread.currentThread().getName().endsWith("-0") ? 0 : 1;
    }
}
