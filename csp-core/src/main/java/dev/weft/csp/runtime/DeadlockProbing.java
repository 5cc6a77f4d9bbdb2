package dev.weft.csp.runtime;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The deadlock probes of one pool (see {@link DeadlockProbe}): sending them out when the pool comes to rest,
 * taking their fibers back when a worker wakes, and hearing from the probe thread what each collection found.
 * Its monitor guards the probes: hanging fibers in them, taking them back, their delays and counts.
 */
final class DeadlockProbing {
    private static final System.Logger LOG = System.getLogger("dev.weft.csp");
    /** The delay a refuted probe sets for the next one, at first and at most (it doubles in between). */
    private static final long MIN_PROBE_DELAY = 10_000_000L, MAX_PROBE_DELAY = 60_000_000_000L;

    private final WorkerPool pool;
    /** The deadlock probes out now (one per run), held weakly (see {@link DeadlockProbe}); under the lock. */
    private final List<WeakReference<DeadlockProbe>> probes = new ArrayList<>();
    /** Whether a probe is out or being sent: read by each worker that leaves its rest (see {@link #leftRest}). */
    private volatile boolean probing;
    /** How long a probe waits before it asks for a collection: 0 at first, longer after each refuted one. */
    private long probeDelay;
    /** When the last refuted probe asked for its collection ({@link System#nanoTime()}). */
    private long lastRefuted;
    private long probesStarted;
    private long probesRefuted;
    /** After how long a refuted probe's run is reported as hanging (see {@link #probeRefuted}); 0: never. */
    private volatile long hangWarningNanos;


    DeadlockProbing(WorkerPool pool) {
        this.pool = pool;
    }

    /** Every fiber of {@code workers}' live lists and of the probes out (a snapshot). */
    synchronized List<Schedulable> liveSnapshot(Worker[] workers) {
        List<Schedulable> out = new ArrayList<>();
        for (Worker w : workers) {
            w.live.snapshot(out);
        }
        for (WeakReference<DeadlockProbe> handle : probes) {
            DeadlockProbe p = handle.get();
            if (p != null && p.out) {
                out.addAll(p.fibers());
            }
        }
        return out;
    }

    /**
     * Sends out one deadlock probe for each of {@code runs}: the live fibers of that run ({@code runOf} tells a
     * fiber's run) leave their workers' lists and hang in the probe's ring, and the probe thread asks for a
     * collection once the delay earned by refuted probes has passed. Called by the deadlock check, which
     * found every fiber of those runs parked; done only if no probe is out. {@code probing} is published
     * first, and only then is the pool's rest checked again ({@code stillAtRest}) and the fibers hung: a
     * worker that leaves its rest after that look sees the flag ({@link #leftRest}) and waits for this lock
     * to take the fibers back before it runs one; one that left before it makes the look fail. True if
     * probes went out.
     */
    boolean sendProbes(BooleanSupplier stillAtRest, Function<Schedulable, RunGroup> runOf,
                              Set<RunGroup> runs) {
        synchronized (this) {
            if (!probes.isEmpty()) {
                return false;
            }
            probing = true;
            if (!stillAtRest.getAsBoolean()) {
                probing = false;
                return false;
            }
            hangFibersOf(runOf, runs);
            long now = System.nanoTime();
            long notBefore = lastRefuted + probeDelay;
            for (WeakReference<DeadlockProbe> handle : probes) {
                probesStarted++;
                DeadlockProbes.collect(pool, handle, probeDelay == 0 || notBefore - now < 0 ? now
                        : byHangWarning(notBefore, now, now));
            }
            probing = !probes.isEmpty();
            return probing;
        }
    }

    /**
     * Moves the live fibers of each of {@code runs} into the ring of a new probe of its own, and keeps only the
     * probes' weak handles ({@link #probes}). No frame of the thread that sends probes may hold one once this
     * returns, or a collection that comes before that frame is gone would find the ring reachable from it.
     * The lists hold no fiber that is done: every worker emptied its {@link Worker#endedHere} list as it
     * parked, and ran nothing since (the pool is at rest).
     */
    private void hangFibersOf(Function<Schedulable, RunGroup> runOf, Set<RunGroup> runs) {
        Map<RunGroup, DeadlockProbe> byRun = new HashMap<>();
        for (Worker w : pool.workers()) {
            for (Schedulable c = w.live.detachIf(f -> runs.contains(runOf.apply(f))); c != null; ) {
                Schedulable next = c.liveNext;
                byRun.computeIfAbsent(runOf.apply(c), r -> new DeadlockProbe(pool)).hang(c);
                c = next;
            }
        }
        for (DeadlockProbe p : byRun.values()) {
            p.out = true;
            probes.add(p.handle);
        }
    }

    /**
     * A worker leaves its rest, about to run fibers: if probes are out, their fibers go back to their lists
     * first (one of them may be the fiber that was woken).
     */
    void leftRest() {
        if (probing) {
            synchronized (this) {
                takeBackProbes();
            }
        }
    }

    /**
     * Takes back the fibers of every probe out, under the probe lock. A probe found unreachable is left to its
     * finalization: none of its fibers can be woken, and the finalizer hands it back ({@link #probeUnreachable}).
     */
    private void takeBackProbes() {
        for (Iterator<WeakReference<DeadlockProbe>> it = probes.iterator(); it.hasNext(); ) {
            DeadlockProbe p = it.next().get();
            if (p != null) {
                if (p.out) {
                    p.takeBack();
                }
                it.remove();
            }
        }
        probing = !probes.isEmpty();
    }

    /** Whether the probe behind {@code handle} is still out and reachable (the probe thread's question). */
    boolean isOut(WeakReference<DeadlockProbe> handle) {
        synchronized (this) {
            return isOutNow(handle);
        }
    }

    /** As {@link #isOut}, under the probe lock. */
    private boolean isOutNow(WeakReference<DeadlockProbe> handle) {
        DeadlockProbe p = handle.get();
        return p != null && p.out && probes.contains(handle);
    }

    /**
     * A collection found the probe behind {@code handle} still reachable: nothing is reported. The probe stays
     * out until a worker wakes, and asks again after a delay that doubles each time (from 10 ms to a minute):
     * what held the fibers may let go of them without waking one (a task that ends without writing), and an
     * idle pool whose fibers wait on an outside party does not collect again and again.
     */
    void probeRefuted(WeakReference<DeadlockProbe> handle) {
        List<Schedulable> hanging = null;
        long nanos = 0;
        synchronized (this) {
            probesRefuted++;
            lengthenProbeDelay();
            DeadlockProbe p = isOutNow(handle) ? handle.get() : null;
            if (p != null) {
                nanos = lastRefuted - p.sentAt;
                long hang = hangWarningNanos;
                // Two collections, not one: the first can find the ring held by a reference on its way out (a
                // carrier's frame the JIT or the interpreter still counts as live), where the next, 10 ms later,
                // finds it unreachable and reports the deadlock that a warning would have wrongly called a hang.
                p.refutations++;
                if (hang > 0 && !p.hangReported && nanos >= hang && p.refutations >= 2) {
                    p.hangReported = true;
                    hanging = p.fibers();
                }
                DeadlockProbes.collect(pool, handle, p.hangReported ? lastRefuted + probeDelay
                        : byHangWarning(lastRefuted + probeDelay, p.sentAt, lastRefuted));
            }
        }
        DeadlockCheck check = pool.rest.check();
        if (hanging != null && check != null) {
            // This thread asks for the collections: the fibers must not stay reachable from its frames after this.
            LOG.log(System.Logger.Level.WARNING, check.hangWarning(pool, hanging, nanos));
        }
    }

    /**
     * A probe's next collection, {@code notBefore}, brought forward to when the hang warning of fibers hung at
     * {@code sentAt} is due: the warning rests on collections that found them still reachable. A warning due
     * already ({@code now} is past it) waits for {@code notBefore}: its second look comes a delay after the first.
     */
    private long byHangWarning(long notBefore, long sentAt, long now) {
        long hang = hangWarningNanos;
        if (hang <= 0 || hang == Long.MAX_VALUE) {
            return notBefore;
        }
        long warnAt = sentAt + hang;
        return warnAt - now > 0 && warnAt - notBefore < 0 ? warnAt : notBefore;
    }

    /** After how long a run whose fibers all stay blocked, unreachable for a deadlock report, is warned of. */
    void setHangWarning(long nanos) {
        hangWarningNanos = nanos;
    }

    long hangWarningNanos() {
        return hangWarningNanos;
    }

    /**
     * The finalizer handed back {@code p}: its ring was unreachable, so none of its fibers can ever be woken
     * (other than by a cancellation). They go back to their lists, and the deadlock check reports their run.
     */
    void probeUnreachable(DeadlockProbe p) {
        List<Schedulable> fibers;
        synchronized (this) {
            if (!p.out) {
                return; // taken back before the collection that found it unreachable
            }
            fibers = p.fibers();
            p.takeBack();
            probes.remove(p.handle);
            probing = !probes.isEmpty();
        }
        DeadlockCheck check = pool.rest.check();
        if (check != null && check.unreachable(pool, fibers)) {
            synchronized (this) {
                probeDelay = 0; // a deadlock found: the next one is looked for at once again
            }
        }
    }

    private void lengthenProbeDelay() {
        probeDelay = Math.min(Math.max(2 * probeDelay, MIN_PROBE_DELAY), MAX_PROBE_DELAY);
        lastRefuted = System.nanoTime();
    }

    /** Deadlock probes sent out so far (see {@link DeadlockProbe}). */
    long started() {
        synchronized (this) {
            return probesStarted;
        }
    }

    /** Deadlock probes whose collection found the fibers still reachable from outside, so reported nothing. */
    long refuted() {
        synchronized (this) {
            return probesRefuted;
        }
    }
}
