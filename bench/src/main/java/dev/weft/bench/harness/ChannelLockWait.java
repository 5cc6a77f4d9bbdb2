package dev.weft.bench.harness;

import dev.weft.csp.runtime.ParkingLot;
import dev.weft.csp.runtime.RuntimeLock;
import java.util.ArrayList;
import java.util.List;

/**
 * How long taking a contended channel lock waits: threads take one {@link RuntimeLock}, built as a channel's lock
 * is (a word with {@link ParkingLot#LOCKED} and {@link ParkingLot#WAITERS}: one compare-and-set, else the parking
 * lot; left with one release store unless a waiter is parked), hold it for a few field updates, and
 * record the time of each acquisition alone, while busy threads keep more threads runnable than there are
 * cores. Prints the quantiles of three durations and the acquisitions per second:
 * <ul>
 * <li>wait: from the call of {@code lock()} to its return, each acquisition;
 * <li>hold: from acquired to released (a holder descheduled under the lock shows here, and every waiter
 * waits for it, whatever the lock);
 * <li>handover: from a release to the next acquisition, when that acquirer was already waiting at the
 * release: how long the lock sat free while wanted, the cost of the waiting itself (a waiter that yielded
 * its time slice, or one that parked and must be woken), apart from the holder's and the measuring thread's
 * own descheduling.
 * </ul>
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.harness.ChannelLockWait LOCKERS BUSY SECONDS</pre>
 *
 * <p>Defaults: 4 lockers, 4 busy threads, 5 measured seconds after 2 of warm-up.
 */
public final class ChannelLockWait {
    private static final long WARM_UP_NANOS = 2_000_000_000L;

    private ChannelLockWait() {
    }

    /** What the holders change under the lock. */
    private static final class Guarded {
        long a;
        long b;
        long c;
        long d;
        /** When the last holder released the lock (written under it). */
        long releasedAt;
    }

    /** Runs the measurement: {@code args} LOCKERS BUSY SECONDS, each optional. */
    public static void main(String[] args) throws Exception {
        int lockers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int busy = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        RuntimeLock channel = new RuntimeLock();
        Guarded guarded = new Guarded();
        long start = System.nanoTime();
        long measureFrom = start + WARM_UP_NANOS;
        long end = measureFrom + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        LatencyHistogram[] waits = new LatencyHistogram[lockers];
        LatencyHistogram[] holds = new LatencyHistogram[lockers];
        LatencyHistogram[] handovers = new LatencyHistogram[lockers];
        try (BusyThreads load = new BusyThreads(busy)) {
            for (int i = 0; i < lockers; i++) {
                LatencyHistogram wait = waits[i] = new LatencyHistogram();
                LatencyHistogram hold = holds[i] = new LatencyHistogram();
                LatencyHistogram handover = handovers[i] = new LatencyHistogram();
                long id = i;
                Thread t = new Thread(() -> {
                    long x = id;
                    for (;;) {
                        long t0 = System.nanoTime();
                        channel.lock();
                        long t1 = System.nanoTime();
                        long released = guarded.releasedAt;
                        guarded.a++;
                        guarded.b += t1;
                        guarded.c ^= t0;
                        guarded.d = id;
                        long t2 = System.nanoTime();
                        guarded.releasedAt = t2;
                        channel.unlock();
                        if (t0 - measureFrom >= 0) {
                            if (t2 - end >= 0) {
                                break;
                            }
                            wait.record(t1 - t0);
                            hold.record(System.nanoTime() - t1);
                            if (released - t0 > 0) {
                                handover.record(t1 - released);
                            }
                        }
                        for (int k = 0; k < 20; k++) { // a little work between acquisitions
                            x = x * 6364136223846793005L + 1442695040888963407L;
                        }
                    }
                    guarded.d += x & 1; // keeps the work
                }, "locker-" + i);
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        LatencyHistogram wait = new LatencyHistogram();
        LatencyHistogram hold = new LatencyHistogram();
        LatencyHistogram handover = new LatencyHistogram();
        for (int i = 0; i < lockers; i++) {
            wait.add(waits[i]);
            hold.add(holds[i]);
            handover.add(handovers[i]);
        }
        System.out.printf("%d lockers on one channel lock, %d busy threads, %d cores, %d s%n", lockers, busy,
                Runtime.getRuntime().availableProcessors(), seconds);
        System.out.println("wait: " + wait.summary());
        System.out.println("hold: " + hold.summary());
        System.out.println("handover: " + handover.summary());
        System.out.printf("acquisitions: %,.0f per second%n", (double) wait.count() / seconds);
        System.out.println("RESULT lockWait " + wait.figures());
        System.out.println("RESULT lockHold " + hold.figures());
        System.out.println("RESULT lockHandover " + handover.figures());
        System.out.printf("RESULT lockAcquisitionsPerSecond %.0f%n", (double) wait.count() / seconds);
    }
}
