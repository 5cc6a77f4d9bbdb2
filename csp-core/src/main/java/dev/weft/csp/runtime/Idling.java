package dev.weft.csp.runtime;

import dev.weft.csp.spi.Poller;

import java.util.concurrent.locks.LockSupport;

/**
 * What a {@link Worker} does once it has no fiber to run: it looks for work, spinning a few microseconds
 * while another worker is busy (its inbox and own batches, other workers' windows and inboxes, fibers stuck
 * behind a long slice, due timers anywhere), then parks until work is handed to it, a batch is published, or
 * the earliest timer falls due. It naps instead (50 us, doubling up to 1 ms) only while it watches a slice
 * that lasts, one it has seen at two looks, with fibers queued behind it or sockets to poll: short slices keep
 * an idle carrier asleep, however busy the others are. A slice that starts to last while the others sleep is
 * seen by the {@link CarrierWatchdog}, which wakes one of them to watch it ({@link #sliceLasts}). An
 * idle program uses no CPU.
 *
 * <p>A worker's active batch stays private in spirit but not in law: a fiber that computes for long (or keeps
 * finding its partners ready) would hold the fibers queued behind it hostage while other carriers idle. So an
 * idle worker that sees another worker's slice last {@value #STUCK_NANOS} ns takes the older half of the
 * fibers queued behind it (the queue is a {@link RunQueue}, guarded by a spin lock in pools of several
 * workers). This is what lets a processor farm scale. With a {@link Poller}, an idle worker napping beside a
 * carrier that has neither polled nor begun a slice for {@value Worker#POLL_ASIDE_NANOS} ns polls for it
 * ({@link Worker#pollForStalled}), as busy workers do at their polls.
 *
 * <p>One per worker; its carrier only, but for {@link #sliceLasts}.
 */
final class Idling {
    /** How long an idle worker spins looking for work before it parks. */
    private static final long SPIN_NANOS = 5_000;
    /** A worker whose slice has lasted this long lets idle workers take the fibers queued behind it. */
    private static final long STUCK_NANOS = 3_000;
    /** How long an idle worker naps, at first and at most, beside a slice that lasts. */
    private static final long NAP_NANOS = 50_000, MAX_NAP_NANOS = 1_000_000;

    private final Worker self;
    private final WorkerPool pool;
    /** What this worker, idle, last saw of each other worker's slice (made at its first look). */
    private ProgressWatch sliceWatch;
    private long nap = NAP_NANOS;
    /**
     * Whether this worker's last look found another worker's slice still running since its look before, with
     * fibers queued behind it or a poller: then it naps beside that slice instead of sleeping soundly.
     */
    private boolean sliceToWatch;
    /** True while parked with no nap (no slice to watch): see {@link #sliceLasts}. */
    private volatile boolean soundAsleep;

    Idling(Worker self) {
        this.self = self;
        this.pool = self.pool;
    }

    /**
     * Called by the {@link CarrierWatchdog}, which has seen the slice of {@code busy} at two of its rounds: if
     * fibers wait behind it, or sockets for its poller, a worker sleeping soundly wakes to watch it (it then
     * steals what waits, polls aside, and naps beside the slice while it lasts). Any thread.
     */
    static void sliceLasts(Worker busy) {
        if (!busy.stealing || busy.running == null || busy.poller == null && busy.active.isEmpty()) {
            return;
        }
        for (Worker w : busy.pool.workers()) {
            if (w != busy && w.idling.soundAsleep && w.wakeIfParked()) {
                return;
            }
        }
    }

    /** Looks for work, spinning briefly, then parks; false once the pool is closed and idle for good. */
    boolean idle() {
        Poller p = self.poller;
        if (p != null) {
            // What the batch wrote leaves now: a reply its peer waits for must not wait for the look for work
            // and the bookkeeping of a wait below (a deadlock check, at rest), which only delay this carrier.
            p.flush();
        }
        // Volatile, read by other workers and outside threads only as hints (whether to spin, where to hand a
        // fiber): a stale read costs a spin or a wake-up, and work handed to a busy worker waits only for its rotation.
        self.idle = true;
        // A full fence before the look for work below: a worker that publishes a batch and then reads 0 here
        // (signalWork) is answered by that look, which sees the batch. The count is a hint otherwise.
        pool.idle.incrementAndGet();
        try {
            return spinThenPark();
        } finally {
            // No order needed: a stale count only costs a publisher a vain look at the parked flags, and the
            // deadlock check (which reads it first) trusts only those flags and their sessions (Quiescence).
            pool.idle.decrementAndGet();
            self.idle = false;
            pool.probes.leftRest(); // before any fiber runs: the fibers of a deadlock probe go back to their lists
        }
    }

    private boolean spinThenPark() {
        long spinEnd = 0;
        // Spin only while another worker is busy: its fibers may hand this one work at once. Otherwise work can
        // only come from outside (a network event loop, a plain thread, a timer), which a spinning carrier would
        // be taking the CPU from.
        for (int i = self.stealing && othersBusy() ? 0 : -1; i >= 0; i++) {
            if (findWork()) {
                return true;
            }
            if (pool.closed && pool.canStop()) {
                return false;
            }
            if (i == 0) {
                Poller p = self.poller;
                if (p != null) {
                    p.pollNow(); // what this batch wrote goes out before the spin
                    self.countPoll();
                }
                spinEnd = System.nanoTime() + SPIN_NANOS;
            } else if ((i & 15) == 0 && System.nanoTime() - spinEnd > 0) {
                break;
            }
            Thread.onSpinWait();
        }
        self.removeEndedAway(); // before the pool can look at rest: its live lists are exact then
        // Single writer; volatile, and before the volatile store of parked below: a reader that sees parked set
        // and then reads this count sees this session's (see Quiescence).
        self.parkSessions = self.parkSessions + 1;
        Poller p = self.poller; // read once: a poller plugged in meanwhile wakes this park (see WorkerPool.plugPollers)
        // Volatile (a full fence) before the last look for work: the Dekker pair with wakeIfParked (see the field).
        self.parked = p != null ? Worker.IN_POLLER : Worker.PARKED_THREAD;
        try {
            if (findWork()) {
                return true;
            }
            if (pool.closed && pool.canStop()) {
                return false;
            }
            long deferredCheck = pool.rest.checkDeadlock(self);
            TimerEntry due = earliestTimer();
            Simulation simulation = self.simulation;
            if (simulation != null && due != null) {
                if (pool.rest.onlyTimersCanWake()) {
                    simulation.advanceTo(due.deadline); // every fiber waits: the next timer is due at once
                    return true;
                }
                due = null; // virtual time stands still while a party outside the pool may still act
            }
            long wait = Math.min(deferredCheck, due == null ? Long.MAX_VALUE : due.deadline - System.nanoTime());
            if (self.stealing) {
                // Nap instead, and come back to see whether that slice got stuck; a watch, once begun, doubles its
                // naps up to the longest before the worker sleeps (slices of a few ms, one after another, last too).
                if (sliceToWatch || nap > NAP_NANOS && nap < MAX_NAP_NANOS) {
                    wait = Math.min(wait, nap);
                    nap = Math.min(nap * 2, MAX_NAP_NANOS);
                } else { // short slices elsewhere: a slice that starts to last is the watchdog's to see
                    // Volatile, read by the watchdog's thread as a hint (sliceLasts): stale, it wakes a napping
                    // worker (which would have looked soon anyway) or leaves a sleeper until its next round.
                    soundAsleep = true;
                    nap = NAP_NANOS;
                }
            }
            if (p != null) {
                if (wait > 0) {
                    p.await(wait); // a wake-up clears parked, then calls the poller's wakeUp
                    self.countPoll();
                }
            } else if (wait == Long.MAX_VALUE) {
                LockSupport.park(self);
            } else if (wait > 0) {
                LockSupport.parkNanos(self, wait);
            }
            if (Thread.interrupted()) { // else every later park returns at once: the carrier would spin
                pool.carrierInterrupted();
            }
            return true;
        } finally {
            soundAsleep = false;
            // Volatile: from here a waker's CAS fails and the worker, awake, looks for work itself. A waker that
            // cleared it first may unpark it later: that permit only makes a later park return early, and every
            // park here is followed by a look for work.
            self.parked = 0;
            CarrierWatchdog.carrierWoke(); // after the store above: see CarrierWatchdog.doze
        }
    }

    /** The earliest timer this idle worker must wake for: its own, or one of a worker that is busy. */
    private TimerEntry earliestTimer() {
        TimerEntry best = self.timers.first();
        for (Worker w : pool.workers()) {
            if (w != self && !w.isParked()) {
                TimerEntry e = w.timers.first();
                if (e != null && (best == null || e.deadline - best.deadline < 0)) {
                    best = e;
                }
            }
        }
        return best;
    }

    /** Takes in handed-over fibers, fires due timers, steals a batch; true if there is a fiber to run here. */
    private boolean findWork() {
        if (!self.polled.isEmpty()) {
            return true; // what its own poll woke (see Worker#pushPolled): next() takes it
        }
        RunQueue active = self.active;
        active.drain(self.inbox);
        if (self.stealing && active.isEmpty()) {
            self.takeBatch(0); // its own waiting batches (a thief may have emptied the active batch before a rotation)
        }
        if (!self.timers.isEmpty()) { // no clock read without timers
            TimerHeap.fire(self.timers.takeDue(pool.nanoTime(), false));
        }
        if (!active.isEmpty() || !self.stealing) {
            return !active.isEmpty();
        }
        long now = pool.nanoTime();
        if (stealFromOthers(now)) {
            return true;
        }
        Worker[] all = pool.workers();
        int n = all.length;
        for (int k = 1; k < n; k++) {
            Worker victim = all[(self.index + k) % n];
            if (!victim.timers.isEmpty()) {
                TimerHeap.fire(victim.timers.takeDue(now, true)); // its fibers wake here
            }
        }
        return !active.isEmpty();
    }

    /** Counts a steal: a published batch, what was handed to another worker, or fibers stuck behind a long slice. */
    private void stole(int fibers) {
        pool.steals.increment();
        RuntimeEvents.stolen(self.thread().getName(), fibers);
    }

    private boolean stealFromOthers(long now) {
        Worker[] all = pool.workers();
        int n = all.length;
        for (int k = 1; k < n; k++) {
            Worker victim = all[(self.index + k) % n];
            Batch b = victim.window.poll();
            if (b != null) {
                stole(b.size());
                self.takeAll(b);
                return true;
            }
            if (self.active.drain(victim.inbox)) {
                return true;
            }
        }
        return stealFromStuck(all, now);
    }

    /**
     * Takes the older half of the fibers queued behind a slice that has lasted {@link #STUCK_NANOS} (a fiber computing, or
     * one that keeps finding its partners ready): they would otherwise wait for it while this worker idles.
     * Runnable fibers wait in a private active batch for locality, and this is the one way out of it. A busy
     * worker whose fiber yields with nothing else to run looks too ({@link Worker#pushYielded}).
     */
    boolean stealFromStuck(Worker[] all, long now) {
        int n = all.length;
        if (sliceWatch == null) {
            sliceWatch = new ProgressWatch(n, Worker::slices);
        }
        sliceToWatch = false;
        if (self.pollForStalled(now) && (!self.polled.isEmpty() || !self.active.isEmpty())) {
            nap = NAP_NANOS;
            return true; // fibers that another carrier's sockets woke, to run here
        }
        for (int k = 1; k < n; k++) {
            Worker victim = all[(self.index + k) % n];
            long lasted = sliceWatch.stillFor(victim, now);
            if (lasted < 0) {
                continue;
            }
            Poller p = victim.poller;
            if (victim.running != null && (p != null || !victim.active.isEmpty())) {
                sliceToWatch = true; // a slice seen at two looks, which may hold fibers or sockets up
            }
            if (lasted < STUCK_NANOS || victim.running == null || victim.active.isEmpty()) {
                continue;
            }
            Batch b = self.newBatch();
            victim.active.moveFirstHalfTo(b);
            if (!b.isEmpty()) {
                stole(b.size());
                self.takeAll(b);
                nap = NAP_NANOS;
                return true;
            }
            self.spare = b;
        }
        return false;
    }

    /** Whether another worker is busy (and may get stuck in a slice with fibers queued behind it). */
    private boolean othersBusy() {
        for (Worker w : pool.workers()) {
            if (w != self && !w.idle && !w.stopped) {
                return true;
            }
        }
        return false;
    }
}
