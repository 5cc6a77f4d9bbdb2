package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class WorkStealingTest {
    @Test
    @Timeout(30)
    void independentFibersSpawnedOnOneWorkerRunOnBoth() {
        try (Scheduler s = Scheduler.create(2)) {
            Set<Thread> ran = ConcurrentHashMap.newKeySet();
            AtomicLong sink = new AtomicLong();
            // Every fiber is spawned by one fiber on one worker; the other worker has to steal to help.
            Weft.run(s, () -> Parallel.forRange(0, 64, i -> {
                ran.add(Thread.currentThread());
                sink.addAndGet(work(200_000 + i));
            }));
            assertEquals(2, ran.size(), "carriers that ran fibers: " + ran);
            assertTrue(sink.get() != 0);
        }
    }

    private static long work(int n) {
        long x = n;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    @Test
    @Timeout(60)
    void whenNoWorkerIsIdleAChildStartsOnItsSpawnersCarrier() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int trial = 0; trial < 20; trial++) {
                AtomicReference<Thread> busy1 = new AtomicReference<>();
                AtomicReference<Thread> busy2 = new AtomicReference<>();
                AtomicReference<Thread> parent = new AtomicReference<>();
                AtomicReference<Thread> child = new AtomicReference<>();
                java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
                Weft.run(s, () -> {
                    // Two fibers that keep their carriers busy (yielding, so that nothing starves); an idle
                    // worker steals one of them, and then no worker is idle.
                    Fiber hog1 = Weft.spawn(() -> hog(busy1, stop));
                    Fiber hog2 = Weft.spawn(() -> hog(busy2, stop));
                    while (busy1.get() == null || busy2.get() == null || busy1.get() == busy2.get()) {
                        Fiber.yield();
                    }
                    parent.set(Thread.currentThread());
                    Fiber f = Weft.spawn(() -> child.set(Thread.currentThread()));
                    f.join();
                    stop.set(true);
                    hog1.join();
                    hog2.join();
                });
                assertSame(parent.get(), child.get(), "trial " + trial);
            }
        }
    }

    @Pausable
    private static void hog(AtomicReference<Thread> carrier, java.util.concurrent.atomic.AtomicBoolean stop) {
        while (!stop.get()) {
            carrier.set(Thread.currentThread());
            work(2_000);
            Fiber.yield();
        }
    }

    /**
     * A fiber that never pauses wakes another and then waits for it: the woken fiber is queued behind it on
     * its carrier, and only the idle worker taking it from there (a slice that lasts is stuck) ends the wait.
     */
    @Test
    @Timeout(60)
    void aFiberQueuedBehindALongSliceRunsOnAnIdleWorker() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 200; round++) {
                java.util.concurrent.atomic.AtomicBoolean answered = new java.util.concurrent.atomic.AtomicBoolean();
                One2OneChannel<Integer> ch = Channel.one2one();
                Weft.run(s, () -> {
                    Fiber helper = Weft.spawn(() -> {
                        ch.in().read();
                        answered.set(true);
                    });
                    ch.out().write(1); // the helper waits in read: this wakes it onto our carrier's queue
                    while (!answered.get()) {
                        Thread.onSpinWait(); // never pauses: the helper must run elsewhere
                    }
                    helper.join();
                });
            }
        }
    }

    /**
     * A par waits for its branches at once, so they run on its carrier as soon as it pauses. Were they
     * published, each par would wake the idle carrier, which would take the second branch while the first
     * runs (200 us: an awake thief sees a slice of 3 us as stuck), and the join would wake the par across
     * carriers.
     */
    @Test
    @Timeout(60)
    void theBranchesOfASmallParRunOnItsCarrier() {
        int pars = 1000;
        try (Scheduler s = Scheduler.create(2)) {
            AtomicInteger local = new AtomicInteger();
            Weft.run(s, () -> {
                for (int i = 0; i < pars; i++) {
                    Thread spawner = Thread.currentThread();
                    AtomicReference<Thread> first = new AtomicReference<>();
                    AtomicReference<Thread> second = new AtomicReference<>();
                    Parallel.run(() -> {
                        first.set(Thread.currentThread());
                        spin(200_000);
                    }, () -> second.set(Thread.currentThread()));
                    if (first.get() == spawner && second.get() == spawner) {
                        local.incrementAndGet();
                    }
                }
            });
            // Only a slice lasting a watchdog round (a carrier descheduled on a loaded machine) lets the other
            // carrier take a branch: allow for a few of those.
            assertTrue(local.get() >= pars * 9 / 10, local + " of " + pars + " pars ran on their carrier");
        }
    }

    /** Branches that last still run in parallel: each waits, never pausing, until the other has started. */
    @Test
    @Timeout(60)
    void theLongBranchesOfAParRunOnBothCarriers() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int round = 0; round < 20; round++) {
                AtomicInteger started = new AtomicInteger();
                Set<Thread> ran = ConcurrentHashMap.newKeySet();
                Weft.run(s, () -> Parallel.run(() -> meet(started, ran), () -> meet(started, ran)));
                assertEquals(2, ran.size(), "round " + round);
            }
        }
    }

    private static void meet(AtomicInteger started, Set<Thread> ran) {
        ran.add(Thread.currentThread());
        started.incrementAndGet();
        while (started.get() < 2) {
            Thread.onSpinWait();
        }
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Beside a ping-pong (slices of a microsecond, one after another) the idle carrier sleeps: it parks once,
     * not once per nap (it used to nap 50 us to 1 ms at a time while another carrier was busy).
     */
    @Test
    @Timeout(60)
    void anIdleCarrierSleepsBesideShortSlices() {
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> Timer.sleep(Duration.ofMillis(1))); // carriers started
            List<Thread> carriers = Carriers.of(s);
            int before = parkSessions(carriers);
            One2OneChannel<Integer> ping = Channel.one2one();
            One2OneChannel<Integer> pong = Channel.one2one();
            Weft.run(s, () -> Parallel.run(() -> {
                long end = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() - end < 0) {
                    ping.out().write(1);
                    pong.in().read();
                }
                ping.out().poison();
            }, () -> {
                try {
                    for (;;) {
                        pong.out().write(ping.in().read());
                    }
                } catch (PoisonException e) {
                    // the ping side is done
                }
            }));
            int parks = parkSessions(carriers) - before;
            // Napping would be 1000 parks at least (1 ms naps); a carrier descheduled for a watchdog round on a
            // loaded machine costs a few naps.
            assertTrue(parks < 60, "the carriers parked " + parks + " times in 1 s of ping-pong");
        }
    }

    private static int parkSessions(List<Thread> carriers) {
        int n = 0;
        for (Thread t : carriers) {
            n += ((Carrier) t).worker.parkSessions;
        }
        return n;
    }

    @Test
    @Timeout(240) // a minute on a machine loaded five times over
    void stressOnTwoWorkers() {
        try (Scheduler s = Scheduler.create(2)) {
            for (int iteration = 0; iteration < 200; iteration++) {
                assertEquals(16 * 500L, ring(s, 16, 500), "ring, iteration " + iteration);
                // More new fibers than a migration window holds: some wait in the spawner's overflow list.
                assertEquals(256 * 4L, ring(s, 256, 4), "big ring, iteration " + iteration);
                assertEquals(fanInExpected(8, 200), fanIn(s, 8, 200), "fan-in, iteration " + iteration);
            }
        }
    }

    /** A ring of {@code size} processes; one token goes {@code laps} times round; returns the hops counted. */
    private static long ring(Scheduler s, int size, int laps) {
        AtomicLong hops = new AtomicLong();
        Weft.run(s, () -> {
            List<One2OneChannel<Integer>> links = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                links.add(Channel.one2one());
            }
            List<dev.weft.csp.CSProcess> procs = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                ChannelInput<Integer> in = links.get(i).in();
                ChannelOutput<Integer> out = links.get((i + 1) % size).out();
                boolean first = i == 0;
                procs.add(() -> element(in, out, first, laps, hops));
            }
            Parallel.run(procs.toArray(new dev.weft.csp.CSProcess[0]));
        });
        return hops.get();
    }

    @Pausable
    private static void element(ChannelInput<Integer> in, ChannelOutput<Integer> out, boolean first, int laps,
            AtomicLong hops) {
        try {
            if (first) {
                out.write(0);
            }
            for (;;) {
                int v = in.read();
                hops.incrementAndGet();
                if (first && v + 1 == laps) {
                    out.poison();
                    in.poison();
                    return;
                }
                out.write(first ? v + 1 : v);
            }
        } catch (PoisonException e) {
            in.poison();
            out.poison();
        }
    }

    private static long fanInExpected(int writers, int each) {
        return (long) writers * each * (each - 1) / 2;
    }

    /** {@code writers} fibers each write 0..each-1 to one any2one channel; a reader sums them. */
    private static long fanIn(Scheduler s, int writers, int each) {
        AtomicLong sum = new AtomicLong();
        Weft.run(s, () -> {
            Any2OneChannel<Integer> c = Channel.any2one();
            for (int w = 0; w < writers; w++) {
                Weft.spawn(() -> {
                    for (int k = 0; k < each; k++) {
                        c.out().write(k);
                    }
                });
            }
            long total = 0;
            for (int k = 0; k < writers * each; k++) {
                total += c.in().read();
            }
            sum.set(total);
        });
        return sum.get();
    }
}
