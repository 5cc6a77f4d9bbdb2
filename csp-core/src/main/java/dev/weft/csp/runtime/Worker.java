package dev.weft.csp.runtime;

import dev.weft.csp.spi.Poller;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One carrier's scheduler, after CCSP. Fibers run from a private FIFO, the active batch; a fiber made
 * runnable by the fiber running here joins it (communicating fibers stay together). After a bounded number
 * of dispatches the worker rotates: it takes in what other threads handed it ({@link Inbox}), fires due
 * timers, splits a batch that never shrank to one runnable fiber (its fibers are probably independent),
 * and if other batches wait, queues the active batch behind them and takes the oldest (merging small ones).
 * Waiting batches sit in a {@link MigrationWindow}, where idle workers steal them one batch at a time; a
 * fiber spawned here is queued there at once, so it starts here unless an idle worker takes it first. The
 * first few fibers that the running fiber waits for at once (a par's branches) join the active batch
 * instead: they run here as soon as it pauses, with no thread woken to steal them.
 *
 * <p>When it finds no work, the worker looks for some elsewhere, then naps or parks ({@link Idling}): idle
 * workers take published batches, what was handed to other workers, and fibers stuck behind a slice that lasts.
 *
 * <p>With a {@link Poller} plugged in, the worker waits in the poller instead of parking, and a busy worker
 * polls as it rotates (at most every {@value #POLL_EVERY_NANOS} ns): fibers that its I/O wakes run here, from a
 * private queue that no thief reaches ({@link #pushPolled}), but for a backlog shared with an idle worker
 * ({@link #sharePolled}).
 *
 * <p>With one worker nothing is ever split or published: the active batch is the whole run queue, so the
 * order in which fibers run is plain FIFO and deterministic.
 */
final class Worker implements Runnable {
    /** Dispatches per fiber of the batch before the worker rotates, and the bound on that count. */
    private static final int DISPATCH_PER_FIBER = 8;
    private static final int DISPATCH_LIMIT = 256;
    /** Batches smaller than this are merged as the owner takes them back from its window. */
    private static final int MERGE_BELOW = 8;
    /** The most fibers that spawns gather in one private batch while the migration window is full. */
    private static final int SPAWN_BATCH = 32;
    /**
     * A turn of at least this many polled fibers, begun while another worker idles, shares its newer half with
     * it ({@link #sharePolled}): about half a millisecond of a server's requests, far more than a wake-up costs.
     */
    static final int SHARE_POLLED = 32;
    /** A busy worker with a {@link Poller} polls at most this often (at its rotations). */
    static final long POLL_EVERY_NANOS = 20_000;
    /**
     * A worker polls aside for another that has neither polled nor begun a slice for this long while it is not
     * waiting in its poller ({@link #pollForStalled}): held in a long slice, or not running at all (the machine's
     * other processes have its thread). An idle worker looks at each of its looks for work, a busy one at most
     * this often, at its polls.
     */
    static final long POLL_ASIDE_NANOS = 1_000_000;
    /** Values of {@link #parked}: parked on the thread's permit, or waiting in the poller. */
    static final int PARKED_THREAD = 1, IN_POLLER = 2;
    private static final VarHandle PARKED, SLICES, POLLS;

    static {
        try {
            PARKED = MethodHandles.lookup().findVarHandle(Worker.class, "parked", int.class);
            SLICES = MethodHandles.lookup().findVarHandle(Worker.class, "slices", int.class);
            POLLS = MethodHandles.lookup().findVarHandle(Worker.class, "polls", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final WorkerPool pool;
    final int index;
    final Inbox inbox = new Inbox();
    final MigrationWindow window = new MigrationWindow();
    final TimerHeap timers;
    final LiveFibers live = new LiveFibers();
    /** Whether the pool has several workers, which steal from each other. */
    final boolean stealing;
    /** Null unless the pool is simulated: then the next fiber is a seeded random pick (one worker). */
    final Simulation simulation;
    final RunQueue active;
    /**
     * Fibers that this carrier's own polling made runnable (see {@link #pushPolled}): private to the owner, out
     * of every thief's reach, and run before the next rotation; only the owner moves the newer half of a backlog
     * into a stealable batch ({@link #sharePolled}).
     */
    final FiberQueue polled = new FiberQueue();
    private final BatchList overflow = new BatchList();
    /** An empty batch kept for the next split (one allocation less). */
    Batch spare;
    /** Fibers of other homes that ended here (see {@link #endedHere}). */
    private final EndedAway endedAway = new EndedAway();
    private int dispatch;
    /**
     * Polled fibers run since the last rotation (a turn of them: see {@link #next}). The invariant that keeps a
     * carrier busy with I/O fair to its other fibers (spawned, woken by a channel, handed over): the turn of
     * waiting fibers that follows runs at least as many of them as this, or all that wait if fewer. So a
     * waiting fiber with k fibers ahead of it in its carrier's queues runs after at most about k polled fibers
     * plus one turn of them on its carrier, however many sockets the carrier serves (see {@link #rotate}).
     */
    private int polledSinceRotation;
    /** Hand-placed preemption checks left before the next look at whether others wait (see countYieldCheck). */
    private int yieldChecks;
    private boolean shrank;
    /**
     * Slices dispatched so far (written by the owner, read by idle workers and the watchdog to see a slice that
     * lasts). Opaque on both sides: the readers need only to see the count change eventually, never what came
     * before it, and the owner's dispatch loop pays no fence.
     */
    private int slices;
    /** Counts the fibers that the running slice spawns (see {@link #countStarted}). */
    private final StartCredit startCredit = new StartCredit();
    /** What this worker does while it has no fiber to run. */
    final Idling idling;
    /** Set while the running fiber spawns fibers it waits for at once (see {@link #pushNew}). Carrier only. */
    private boolean spawnsAwaited;
    /** The I/O poller plugged in, or null (set once: see {@link WorkerPool#plugPollers}). */
    volatile Poller poller;
    /** Set once the dispatch loop runs inside the poller's {@link Poller#runCarrier} (carrier only). */
    private boolean inPoller;
    /** When the busy worker last polled ({@link #POLL_EVERY_NANOS}). */
    private long polledAt;
    /**
     * Polls of its own sockets so far, made by this carrier (busy or idle), not by others polling aside for it.
     * Opaque on both sides, as {@link #slices}: the other workers read it to see it stand still.
     */
    private int polls;
    /** What this worker last saw of the others' {@link #polls} and slices (carrier only; made at its first look). */
    private ProgressWatch pollWatch, sliceWatch;
    /** When the busy worker last looked for stalled workers ({@link #POLL_ASIDE_NANOS}). */
    private long lookedAsideAt;
    /**
     * Non-zero while parked (or about to park): {@link #PARKED_THREAD}, or {@link #IN_POLLER} while waiting in
     * the poller. Whoever clears it owes the worker the wake-up that fits. Ordering: the owner sets it with a
     * volatile store (a full fence) and then looks for work once more; a waker adds its work, then reads it
     * (volatile) and clears it by CAS (one waker wins). So either the owner's last look sees the work, or the
     * waker sees the flag and wakes it (a Dekker pair, which a release store alone would not make).
     */
    volatile int parked;
    /** Park sessions so far (owner writes, bumped before {@link #parked} is set): see {@link Quiescence}. */
    volatile int parkSessions;
    /** True while in {@link Idling#idle()}. */
    volatile boolean idle;
    private Carrier thread;
    /** The fiber this carrier is running right now (plain field: other threads read it only for dumps). */
    Schedulable running;

    /** Set as the carrier stops. */
    volatile boolean stopped;

    Worker(WorkerPool pool, int index, boolean stealing) {
        this.pool = pool;
        this.index = index;
        this.stealing = stealing;
        this.simulation = pool.simulation;
        this.timers = new TimerHeap(pool);
        this.active = new RunQueue(stealing);
        this.idling = new Idling(this);
    }

    void start(String name) {
        thread = new Carrier(this, name);
        thread.start();
    }

    Carrier thread() {
        return thread;
    }

    /** Slices dispatched so far: a slice that lasts shows the same count (read by other threads). */
    int slices() {
        return (int) SLICES.getOpaque(this); // opaque: see the field's comment
    }

    /** Polls this carrier made of its own sockets so far (read by other threads: see {@link #pollForStalled}). */
    int polls() {
        return (int) POLLS.getOpaque(this);
    }

    /** Counts a poll this carrier made of its own sockets, blocking or not. Carrier only. */
    void countPoll() {
        POLLS.setOpaque(this, polls + 1);
    }

    /**
     * Polls the sockets of every other worker that has stalled, neither polled nor begun a slice for
     * {@link #POLL_ASIDE_NANOS}, while not waiting in its poller ({@link Poller#pollAside}): its carrier is held
     * in a long slice, or not running at all, as when the machine's other processes have its thread for a few
     * milliseconds. Its sockets must not wait for it: the fibers their I/O wakes run here. A worker that keeps
     * beginning slices is left alone, however long its turn between two polls: polling for it would only contend
     * for its loop and move its fibers here (with polls alone as the sign, two busy carriers serving 10,000
     * connections measured about a tenth fewer requests a second). A worker waiting in its poller handles its
     * own I/O (and holds its loop, so a poll aside would do nothing). A worker counts its poll as soon as its
     * wait in the poller returns, before it clears {@link #parked}: one back from a long wait is not taken for
     * a stalled one (a waker may clear the flag first, while the worker is still in its poller, which a poll
     * aside then finds busy). True if it polled for any. Carrier only.
     */
    boolean pollForStalled(long now) {
        Worker[] all = pool.workers();
        if (pollWatch == null) {
            pollWatch = new ProgressWatch(all.length, Worker::polls);
            sliceWatch = new ProgressWatch(all.length, Worker::slices);
        }
        boolean any = false;
        for (Worker w : all) {
            Poller p = w.poller;
            // parked first (volatile): a worker back from its poller counted that poll before it cleared parked.
            if (w == this || p == null || w.parked == IN_POLLER || w.stopped) {
                continue;
            }
            // Both looks each time: each times its count from the look that first saw it.
            long notPolled = pollWatch.stillFor(w, now), noNewSlice = sliceWatch.stillFor(w, now);
            if (Math.min(notPolled, noNewSlice) >= POLL_ASIDE_NANOS) {
                p.pollAside();
                any = true;
            }
        }
        return any;
    }

    /** The worker whose carrier is the calling thread, or null. */
    static Worker current() {
        Thread t = Thread.currentThread();
        return t instanceof Carrier ? ((Carrier) t).worker : null;
    }

    // ------------------------------------------------------------------ handing work to this worker

    /** A fiber made runnable on this carrier: it joins the active batch. Carrier only. */
    void pushLocal(Schedulable c) {
        active.add(c);
        wakeIfAboutToWait();
    }

    /**
     * Work was added by this carrier itself. Usually a fiber running here did it, and the carrier looks at its
     * queues before it waits; but work added while it is on its way to wait (after its last look: by its
     * poller's tasks and I/O, by a deadlock check) would wait with it, maybe for good. So that wait must end at
     * once, as for work handed over by another thread: the carrier clears its own {@link #parked} and takes the
     * wake-up it owes itself (a permit for its park, a wake-up request its poller reads before it blocks). The
     * same holds for a timer it adds then, due before the wait's bound.
     */
    void wakeIfAboutToWait() {
        if (parked != 0) { // the owner's own last write: no race with itself
            wakeIfParked();
        }
    }

    /**
     * A fiber that I/O polled by this carrier made runnable: its socket lives on this carrier's loop, so it runs
     * here, never stolen, lest its reads and writes cross to the socket's carrier and back on every request
     * (work stealing moves fibers, never half-read sockets), unless it is part of a backlog that this carrier shares
     * with an idle one ({@link #sharePolled}). A carrier stuck in a long slice keeps it waiting
     * as it keeps its sockets waiting; an idle carrier that polls aside for it runs what it wakes itself. With
     * one worker nothing is stolen: it joins the active batch. Carrier only.
     */
    void pushPolled(Schedulable c) {
        if (!stealing) {
            pushLocal(c);
            return;
        }
        polled.add(c);
        wakeIfAboutToWait();
    }

    /**
     * The running fiber yielded: it goes to the back of the active batch, behind the fibers that timers due
     * by now wake (else fibers preempted again and again would keep a due timer waiting until the next
     * rotation). If it is alone here, the worker first takes fibers stuck behind a long slice elsewhere, as an
     * idle worker would: the yielding fiber may well be waiting for one of them. Carrier only.
     */
    void pushYielded(Schedulable c) {
        if (!timers.isEmpty()) { // no clock read without timers
            TimerHeap.fire(timers.takeDue(pool.nanoTime(), false));
        }
        boolean alone = stealing && active.isEmpty() && window.isEmpty() && overflow.isEmpty() && inbox.isEmpty();
        active.add(c);
        if (alone) {
            idling.stealFromStuck(pool.workers(), System.nanoTime());
        }
    }

    /** Counts a fiber of {@code run} spawned by the fiber running here (see {@link StartCredit}). Carrier only. */
    void countStarted(RunGroup run) {
        startCredit.countStarted(run, slices);
    }

    /**
     * A fiber spawned by the fiber running here: queued here, in the migration window, so that it starts
     * here unless an idle worker takes it first (even while the spawner keeps this carrier busy). The
     * owner merges small batches again as it takes them back. While the window is full, new fibers fill the
     * newest private batch (up to {@value #SPAWN_BATCH}), and the oldest private batches enter the window as
     * soon as thieves make room there: a spawner that outpaces its thieves hands them ever larger batches,
     * without a batch, a window slot and a compare-and-set for each fiber.
     *
     * <p>A fiber that the spawner waits for at once ({@link #awaitSpawns}) joins the active batch instead,
     * while it holds fewer than {@value #MERGE_BELOW} (as many as the worker takes back from its window at
     * once), and no thief is woken for it: it runs here as soon as the spawner pauses. Published, a par's
     * branches would be split between this carrier and one woken to steal them, and their join would wake
     * the spawner across the two. Only a slice that lasts lets an idle worker take such fibers (see
     * {@link Idling#stealFromStuck}), so long branches still run in parallel; a larger par publishes the rest.
     */
    void pushNew(Schedulable c) {
        if (!stealing || spawnsAwaited && active.size() < MERGE_BELOW) {
            pushLocal(c);
            return;
        }
        Batch last = overflow.last();
        if (last != null && last.size() < SPAWN_BATCH) {
            last.add(c);
        } else {
            Batch b = newBatch();
            b.add(c);
            enqueue(b);
        }
        if (!overflow.isEmpty() && window.hasRoom()) {
            refillWindow(); // thieves took batches during this slice: publish the waiting ones now, not at the rotation
            pool.signalWork(this);
        }
        wakeIfAboutToWait();
    }

    /** Whether the fibers spawned from now on are awaited at once by their spawner (see {@link #pushNew}). */
    void awaitSpawns(boolean awaited) {
        spawnsAwaited = awaited;
    }

    /** A fiber homed on another worker ended here (it was stolen): see {@link EndedAway}. Carrier only. */
    void endedHere(Schedulable c) {
        if (endedAway.add(c)) {
            removeEndedAway();
        }
    }

    /** Takes the fibers that ended here out of their homes' live lists now. Carrier only. */
    void removeEndedAway() {
        if (endedAway.leaveHomeListsNow()) {
            pool.fibersLeft();
        }
    }

    /** As {@link #removeEndedAway}, from any thread (see {@link EndedAway#leaveHomeLists}). */
    void leaveHomeLists() {
        if (endedAway.leaveHomeLists()) {
            pool.fibersLeft();
        }
    }

    /** Counts a hand-placed preemption check ({@code Fiber.yieldIfDue}): true once every {@code every}. Carrier only. */
    boolean countYieldCheck(int every) {
        if (--yieldChecks > 0) {
            return false;
        }
        yieldChecks = every;
        return true;
    }

    /** A fiber handed over by another thread. */
    void pushExternal(Schedulable c) {
        inbox.push(c);
        wakeIfParked();
    }

    /** Unparks this worker if it is parked (or wakes its poller); true if this call did. */
    boolean wakeIfParked() {
        int how = parked; // volatile, after the caller published its work: see the field's comment
        if (how != 0 && PARKED.compareAndSet(this, how, 0)) { // one waker owes the wake-up
            if (how == IN_POLLER) {
                poller.wakeUp();
            } else {
                LockSupport.unpark(thread);
            }
            return true;
        }
        return false;
    }

    boolean isParked() {
        return parked != 0;
    }

    /** Whether this worker is looking for work (spinning or parked). */
    boolean isIdle() {
        return idle;
    }

    /** Whether fibers other than the running one wait on this worker. Carrier only. */
    boolean hasOtherWork() {
        return !active.isEmpty() || !polled.isEmpty() || !overflow.isEmpty() || !window.isEmpty() || !inbox.isEmpty()
                || (!timers.isEmpty() && timers.hasDue(pool.nanoTime()));
    }

    // ------------------------------------------------------------------------------------ the loop

    @Override
    public void run() {
        Throwable crash = null;
        try {
            dispatchAll();
        } catch (Throwable t) {
            crash = t; // a failure of the scheduler itself: the runs it served fail (see workerStopped)
            throw t;
        } finally {
            stopped = true;
            try {
                removeEndedAway();
                Poller p = poller;
                if (p != null) {
                    p.close();
                }
            } finally {
                pool.workerStopped(this, crash);
            }
        }
    }

    /**
     * Runs slices until the worker must stop. Once a poller is plugged in, the rest of the loop runs inside it
     * ({@link Poller#runCarrier}), so that the I/O library's per-thread state serves every slice that follows.
     */
    private void dispatchAll() {
        while (dispatchNext()) { // the loop's body is a method of its own: see dispatchNext
            if (!inPoller) {
                Poller p = poller;
                if (p != null) {
                    inPoller = true;
                    p.runCarrier(this::dispatchAll);
                    return;
                }
            }
        }
    }

    /**
     * Runs the next slice, or idles until there is one; false once the worker must stop. A method of its own, not
     * the body of {@link #run}'s loop: the JIT compiles a method once it has been called a few hundred times,
     * where a loop inside one call that never returns waits for tens of thousands of passes (on-stack
     * replacement), in a short program the carrier would run its first 60,000 slices from the interpreter.
     */
    private boolean dispatchNext() {
        Schedulable c = next();
        if (c == null) {
            return idling.idle();
        }
        running = c;
        SLICES.setOpaque(this, slices + 1); // opaque: see the field's comment
        try {
            c.runSlice();
        } catch (Throwable t) {
            PoolFailures.carrierFailure(c, t);
        }
        startCredit.giveBack();
        running = null;
        return true;
    }

    /**
     * The next fiber to run. Turns alternate: the active batch until its dispatch budget is spent (or it is
     * empty), then every polled fiber, then a rotation that sets the next budget.
     */
    private Schedulable next() {
        if (--dispatch < 0 || active.isEmpty()) {
            if (polledSinceRotation == 0 && polled.size() >= SHARE_POLLED) { // a turn of them begins
                sharePolled();
            }
            Schedulable c = polled.poll(); // at the rotations only: the dispatches between them pay nothing for I/O
            if (c != null) {
                polledSinceRotation++;
                return c;
            }
            rotate();
        }
        if (simulation != null) {
            return nextSimulated();
        }
        Schedulable c = active.poll();
        if (c != null && active.isEmpty()) {
            shrank = true;
        }
        return c;
    }

    /**
     * A turn of many polled fibers begins while another worker idles: the newer half is published as a batch for
     * it to steal. Otherwise that worker, finding its own sockets quiet, would wait in its poller while these
     * wait here for a whole turn (on two carriers at 10,000 connections, one wait in eight found a backlog
     * beside it), and on a loaded machine a carrier that has waited runs again only when the kernel next gives it
     * a processor. Only a backlog moves, and for one run each: a fiber's socket stays where it lives, the thief
     * writes to it inline (its loop is free while its carrier runs fibers), and the next poll of its socket wakes
     * the fiber where it lives again. With one worker {@link #pushPolled} puts nothing here. Carrier only.
     */
    private void sharePolled() {
        if (pool.idle.get() > 0) { // a hint: a stale read costs a batch published to nobody, taken back at a rotation
            Batch b = newBatch();
            polled.moveSecondHalfTo(b);
            enqueue(b);
        }
    }

    /** Any runnable fiber, chosen by the simulation; counts the step against its budget. */
    private Schedulable nextSimulated() {
        if (active.isEmpty()) {
            return null;
        }
        if (simulation.stepOverruns()) {
            pool.failures.budgetSpent(); // fails the runs; their fibers go on running until the cancellation ends them
        }
        return active.take(simulation.choose(active.size()));
    }

    private void rotate() {
        if (dispatch < 0) { // busy a while: not each time a thief's small batch runs out
            removeEndedAway();
        }
        active.drain(inbox);
        if (!timers.isEmpty()) {
            TimerHeap.fire(timers.takeDue(pool.nanoTime(), false));
        }
        int polledTurn = polledSinceRotation;
        polledSinceRotation = 0;
        if (stealing) {
            refillWindow();
            boolean split = !shrank && active.size() >= 2;
            if (split || !window.isEmpty()) {
                // Behind the waiting batches, older fibers first (else the newer half would pass the older one
                // at every rotation), and one half apart for a thief if the batch never shrank.
                if (split) {
                    Batch older = newBatch();
                    active.moveFirstHalfTo(older);
                    enqueue(older);
                }
                if (!active.isEmpty()) {
                    Batch b = newBatch();
                    active.moveAllTo(b);
                    enqueue(b);
                }
                takeBatch(polledTurn);
            }
        }
        Poller p = poller;
        if (p != null && !active.isEmpty()) { // with nothing to run, the worker waits in the poller at once
            pollWhileBusy(p);
        }
        // At least one dispatch per fiber taken in for each polled fiber of the last turn (the invariant at
        // polledSinceRotation): a fixed budget would let a carrier with thousands of sockets run a few hundred
        // waiting fibers per turn of them, and send the rest of its intake back behind the newer ones.
        int budget = Math.min(Math.max(active.size(), 1) * DISPATCH_PER_FIBER, DISPATCH_LIMIT);
        dispatch = Math.max(budget, Math.min(active.size(), polledTurn));
        shrank = false;
    }

    /** Polls without blocking, at most every {@link #POLL_EVERY_NANOS}: fibers it wakes join the active batch. */
    private void pollWhileBusy(Poller p) {
        long now = System.nanoTime();
        if (now - polledAt >= POLL_EVERY_NANOS) {
            polledAt = now;
            p.pollNow();
            countPoll();
            if (stealing && now - lookedAsideAt >= POLL_ASIDE_NANOS) {
                lookedAsideAt = now;
                pollForStalled(now);
            }
        }
    }

    /** Queues a batch behind the others, stealable; wakes a parked worker to come and take it. */
    private void enqueue(Batch b) {
        if (overflow.isEmpty() && window.offer(b)) {
            pool.signalWork(this);
        } else {
            overflow.add(b);
        }
    }

    private void refillWindow() {
        while (!overflow.isEmpty() && window.hasRoom()) {
            window.offer(overflow.poll());
        }
    }

    /**
     * Makes the oldest waiting batches active (unless a thief took every one first), at least {@code atLeast}
     * fibers' worth if that many wait (the polled fibers of the last turn: see {@link #polledSinceRotation}).
     */
    void takeBatch(int atLeast) {
        int want = Math.max(MERGE_BELOW, atLeast);
        do {
            Batch b = window.poll();
            if (b == null) {
                b = overflow.poll();
                if (b == null) {
                    return;
                }
            }
            takeAll(b);
            refillWindow();
        } while (active.size() < want);
    }

    /** Makes the fibers of {@code b} active; {@code b}, empty, is kept for the next split. */
    void takeAll(Batch b) {
        active.takeAll(b);
        spare = b;
    }

    Batch newBatch() {
        Batch b = spare;
        if (b != null) {
            spare = null;
            return b;
        }
        return new Batch();
    }

    @Override
    public String toString() {
        return thread == null ? "worker " + index : thread.getName();
    }
}
