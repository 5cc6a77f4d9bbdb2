package dev.weft.csp.runtime;

import dev.weft.csp.spi.Poller;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The carriers of one scheduler ({@link Worker}s) and how work reaches them. A fiber made runnable by a
 * fiber of this pool is queued on the waker's worker; a fiber spawned by one starts on the spawner's
 * worker; idle workers steal batches. Only what comes from outside (a plain thread's wake-up or spawn) is
 * handed over through a worker's lock-free inbox: to the worker that last ran the fiber, or for a new fiber
 * to a parked worker if there is one. No lock is shared by the workers.
 */
public final class WorkerPool {
    private final String name;
    private final Worker[] workers;
    private final AtomicInteger nextExternal = new AtomicInteger();
    /** Where fibers' and carriers' failures go, and the runs that a carrier's death fails. */
    final PoolFailures failures;
    /** Workers looking for work (spinning or parked): a busy pool pays one volatile read to know none is. */
    final AtomicInteger idle = new AtomicInteger();
    /** Batches stolen so far (statistics). */
    final LongAdder steals = new LongAdder();
    private final AtomicInteger running;
    volatile boolean closed;
    /** Why a carrier died, or null: the pool then refuses new work, and the runs it served fail. */
    private volatile Throwable broken;
    /** Whether the pool has come to rest, and the deadlock check it runs then. */
    final Quiescence rest = new Quiescence(this);
    /** Null unless this is a simulated pool (one worker, virtual clock, seeded choices). */
    final Simulation simulation;
    /** The deadlock probes of this pool's runs (see {@link DeadlockProbing}). */
    final DeadlockProbing probes = new DeadlockProbing(this);
    private volatile Runnable interruptedWhenIdle;
    /** Starts {@code n} carrier threads named after {@code name}. */
    public WorkerPool(int n, String name, BiConsumer<String, Throwable> uncaughtHandler) {
        this(n, name, uncaughtHandler, null);
    }

    /** Starts the one carrier of a pool driven by {@code simulation}. */
    public WorkerPool(String name, BiConsumer<String, Throwable> uncaughtHandler, Simulation simulation) {
        this(1, name, uncaughtHandler, simulation);
    }

    private WorkerPool(int n, String name, BiConsumer<String, Throwable> uncaughtHandler, Simulation simulation) {
        if (n < 1) {
            throw new IllegalArgumentException("a scheduler needs at least one worker, got " + n);
        }
        this.simulation = simulation;
        this.name = name;
        this.failures = new PoolFailures(name, uncaughtHandler);
        workers = new Worker[n];
        running = new AtomicInteger(n);
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker(this, i, n > 1);
        }
        for (int i = 0; i < n; i++) {
            workers[i].start(name + "-" + i);
        }
        CarrierWatchdog.watch(this);
    }

    /** The scheduler's name; its carriers are named after it. */
    public String name() {
        return name;
    }

    Worker[] workers() {
        return workers;
    }

    /** The simulation driving this pool, or null for a pool on real time. */
    public Simulation simulation() {
        return simulation;
    }

    /**
     * The time that deadlines of this pool's fibers are measured on: {@link System#nanoTime()}, or the
     * virtual clock of a simulated pool.
     */
    public long nanoTime() {
        Simulation s = simulation;
        return s == null ? System.nanoTime() : s.nanoTime();
    }

    /** The number of carriers. */
    public int size() {
        return workers.length;
    }

    /**
     * Queues a fiber made runnable again: on the current worker if it is ours, else on the fiber's home worker
     * (where it was first queued: a fiber keeps no note of where it ran last, which would cost it four bytes).
     */
    public void submit(Schedulable fiber) {
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            w.pushLocal(fiber);
        } else {
            Worker home = fiber.home;
            (home != null ? home : pickExternal()).pushExternal(fiber);
        }
    }

    /**
     * Queues a fiber that I/O polled by the calling carrier made runnable (a socket's bytes, see
     * {@code Readiness}): it runs on this carrier, where its socket lives, and is never stolen before it runs
     * (see {@link Worker#pushPolled}); from any other thread, as {@link #submit}.
     */
    public void submitPolled(Schedulable fiber) {
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            w.pushPolled(fiber);
        } else {
            submit(fiber);
        }
    }

    /** Queues a fiber that yielded, behind the others of its carrier (see {@link Worker#pushYielded}). */
    public void yielded(Schedulable fiber) {
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            w.pushYielded(fiber);
        } else {
            submit(fiber);
        }
    }

    /**
     * Counts a new fiber of {@code group} as started: at once, or from the credit of the carrier spawning it
     * (see {@link Worker#countStarted}), which spares a spawner that starts many fibers in one slice a
     * compare-and-set on a counter that the workers running them write as they end.
     */
    public void started(RunGroup group) {
        Worker w = Worker.current();
        if (w != null && w.pool == this && w.running != null) {
            w.countStarted(group);
        } else {
            group.started();
        }
    }

    /** Queues a new fiber: on the spawner's worker if it is ours, else on a parked worker or the next one. */
    public void submitNew(Schedulable fiber) {
        if (broken != null) { // volatile reads: a spawn racing a close or a crash may still slip in; the run counts
            throw new IllegalStateException("the scheduler " + name + " lost a carrier thread", broken);
        }
        if (closed) { // it and its carriers stop only once every live fiber has ended (canStop)
            throw new IllegalStateException("the scheduler " + name + " is closed");
        }
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            fiber.home = w;
            w.live.add(fiber);
            w.pushNew(fiber);
        } else {
            Worker target = pickExternal();
            fiber.home = target;
            target.live.add(fiber);
            target.pushExternal(fiber);
        }
    }

    /**
     * Says whether the fibers that the fiber running on the calling carrier spawns from now on are ones it
     * waits for at once (a par's branches, spawned between {@code true} and {@code false}): such fibers run on
     * this carrier as soon as it pauses, and no idle carrier is woken to take them (see
     * {@link Worker#pushNew}). On any other thread it does nothing.
     */
    public static void spawnsAwaited(boolean awaited) {
        Worker w = Worker.current();
        if (w != null) {
            w.awaitSpawns(awaited);
        }
    }

    /** A worker for work from outside: a parked one if any (it runs the work at once), else round robin. */
    private Worker pickExternal() {
        if (workers.length == 1) {
            return workers[0];
        }
        if (idle.get() > 0) { // a hint (volatile read): a busy worker also takes the work, at its next rotation
            for (Worker w : workers) {
                if (w.isIdle()) {
                    return w;
                }
            }
        }
        return workers[Math.floorMod(nextExternal.getAndIncrement(), workers.length)]; // atomic: only spreads the load
    }

    /**
     * A fiber ended: it leaves the live list of its home worker (once: it ends once), and keeps its home. One
     * that ended on another of our carriers leaves it a little later (see {@link Worker#endedHere}).
     */
    public void ended(Schedulable fiber) {
        Worker home = fiber.home;
        if (home != null) {
            Worker here = Worker.current();
            if (here != null && here != home && here.pool == this) {
                here.endedHere(fiber);
                return;
            }
            home.live.remove(fiber);
            fibersLeft();
        }
    }

    /** Fibers left the live lists: once the pool is closed, its carriers stop with the last. */
    void fibersLeft() {
        if (closed && liveFibers() == 0) {
            wakeAll();
        }
    }

    /**
     * Runs {@code action} once {@link #nanoTime()} reaches {@code deadline}: on the current worker's
     * timers if it is ours, else on a worker's that is woken to take the new deadline into account. Costs no
     * thread; any idle worker fires a due timer if its own worker is busy.
     */
    public TimerEntry wakeAt(long deadline, Runnable action) {
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            TimerEntry e = w.timers.add(deadline, action);
            w.wakeIfAboutToWait(); // the bound of a wait it is about to begin did not count this timer
            return e;
        }
        Worker target = pickExternal();
        TimerEntry e = target.timers.add(deadline, action);
        target.wakeIfParked();
        return e;
    }

    /** Wakes one parked worker other than {@code from}, if any: a batch was published for stealing. */
    void signalWork(Worker from) {
        // A volatile read after the batch was published (the window's tail store): a worker that goes idle after
        // this read finds the batch in its own look for work, so skipping the wake-up here loses nothing.
        if (idle.get() > 0) {
            for (Worker w : workers) {
                if (w != from && w.wakeIfParked()) {
                    return;
                }
            }
        }
    }

    /**
     * Plugs an I/O poller into each carrier, once per pool: {@code make} is called with each carrier thread, and
     * from then on the carrier waits in its poller when idle and polls it between slices (see {@link Poller}).
     * Returns the pollers, in carrier order: those made now, or those plugged in before (by whichever library:
     * the caller checks that they are its own).
     *
     * @throws IllegalStateException if the pool is simulated (its clock is virtual) or stopped
     */
    public synchronized Poller[] plugPollers(Function<Thread, Poller> make) {
        if (simulation != null) {
            throw new IllegalStateException("a simulated scheduler has no I/O poller: use a Scheduler.create(n)");
        }
        if (broken != null || isTerminated()) {
            throw new IllegalStateException("the scheduler " + name + " has stopped");
        }
        Poller[] pollers = new Poller[workers.length];
        for (int i = 0; i < workers.length; i++) {
            Worker w = workers[i];
            Poller p = w.poller;
            if (p == null) {
                p = java.util.Objects.requireNonNull(make.apply(w.thread()), "the poller made for " + w);
                w.poller = p;
                w.wakeIfParked(); // a worker parked on its permit waits in the poller from its next park on
            }
            pollers[i] = p;
        }
        return pollers;
    }

    /** The pollers plugged in, in carrier order (null entries before {@link #plugPollers}). */
    public Poller[] pollers() {
        Poller[] out = new Poller[workers.length];
        for (int i = 0; i < workers.length; i++) {
            out[i] = workers[i].poller;
        }
        return out;
    }

    /** The poller of the calling carrier, or null on any other thread or without pollers. */
    public static Poller pollerHere() {
        Worker w = Worker.current();
        return w == null ? null : w.poller;
    }

    /** The pool of the calling carrier thread, or null on any other thread. */
    public static WorkerPool current() {
        Worker w = Worker.current();
        return w == null ? null : w.pool;
    }

    /** The fiber that the calling carrier thread is running, or null on any other thread. */
    public static Schedulable runningHere() {
        Worker w = Worker.current();
        return w == null ? null : w.running;
    }

    /** Whether the calling carrier (of this pool) has fibers waiting besides the running one. */
    public boolean hasOtherWorkHere() {
        Worker w = Worker.current();
        return w != null && w.pool == this && w.hasOtherWork();
    }

    /** The carrier thread running {@code c} now, or null: for dumps (a plain read of each worker's running fiber). */
    Thread carrierRunning(Schedulable c) {
        for (Worker w : workers) {
            if (w.running == c) {
                return w.thread();
            }
        }
        return null;
    }

    /** Hands the failure of {@code fiber} (as dumps name it), which nobody joined, to the scheduler's handler. */
    public void uncaught(String fiber, Throwable t) {
        failures.uncaught(fiber, t);
    }

    /** Registers a {@code Weft.run} in progress. */
    public void runStarted(RunGroup run) {
        failures.runStarted(run);
    }

    /** Fails every {@code Weft.run} in progress with {@code report} (see {@link RunGroup#fail}). */
    public void failRuns(Throwable report) {
        failures.failRuns(report);
    }

    /** Installs what a simulated pool does once its step budget is spent. */
    public void onBudgetSpent(Runnable action) {
        failures.onBudgetSpent(action);
    }

    /**
     * Unregisters a {@code Weft.run} that is returning. Every fiber of a finished run has left the live lists
     * by then: those that ended on another carrier than their home's are taken out now, if that carrier has
     * not done it yet (each was queued for it before it counted as ended). The failures of the run's fibers
     * that nobody joined go to the handler now, on the calling thread (see {@link UnjoinedFailures}).
     */
    public void runEnded(RunGroup run) {
        failures.runEnded(run);
        for (Worker w : workers) {
            w.leaveHomeLists();
        }
        UnjoinedFailures.runEnded(run);
    }

    /** Counts a {@code Weft.blocking} call in flight (+1 as it starts, -1 as it returns). */
    public void blockingCall(int delta) {
        rest.blockingCall(delta);
    }

    /**
     * The number of fibers started on this pool that have not left their live lists: those that have not
     * ended, and while the pool is busy a few that ended on another carrier than their home's moments ago.
     */
    public int liveFibers() {
        int n = 0;
        for (Worker w : workers) {
            n += w.live.count();
        }
        return n;
    }

    /** The timers waiting in the workers' heaps (sleeps, select timeouts, wake-ups from outside). */
    public int pendingTimers() {
        int n = 0;
        for (Worker w : workers) {
            n += w.timers.size();
        }
        return n;
    }

    /** Every fiber started on this pool that has not ended (a snapshot), those hanging in a probe included. */
    public List<Schedulable> liveSnapshot() {
        return probes.liveSnapshot(workers);
    }

    /** Batches stolen by idle workers so far. */
    public long steals() {
        return steals.sum();
    }

    /**
     * After {@link #close()}: whether the carriers may stop, i.e. no fiber is left. A fiber that is parked may
     * still be woken (by a plain thread, a timer), so it keeps its carriers; one that certainly never runs
     * again belongs to a run, whose deadlock report cancels it.
     */
    boolean canStop() {
        return liveFibers() == 0;
    }

    /** Installs the check that runs when the pool comes to rest (see {@link DeadlockCheck}). */
    public void setDeadlockCheck(DeadlockCheck check) {
        rest.install(check);
    }

    /** Sends out deadlock probes for {@code runs} (see {@link DeadlockProbing#sendProbes}). */
    public boolean sendProbes(BooleanSupplier stillAtRest, Function<Schedulable, RunGroup> runOf,
                              Set<RunGroup> runs) {
        return probes.sendProbes(stillAtRest, runOf, runs);
    }

    /** After how long a run whose fibers all stay blocked, unreachable for a deadlock report, is warned of. */
    public void setHangWarning(long nanos) {
        probes.setHangWarning(nanos);
    }

    /**
     * The hang warning's delay, zero or less for never: also how long a failure nobody joined waits before a
     * warning shows it (see {@link UnjoinedFailures}).
     */
    public long hangWarningNanos() {
        return probes.hangWarningNanos();
    }

    /** Deadlock probes sent out so far (see {@link DeadlockProbe}). */
    public long deadlockProbes() {
        return probes.started();
    }

    /** Deadlock probes whose collection found the fibers still reachable from outside, so reported nothing. */
    public long deadlockProbesRefuted() {
        return probes.refuted();
    }

    /** {@code w} stopped: normally after {@link #close()}, or because {@code crash} escaped its loop. */
    void workerStopped(Worker w, Throwable crash) {
        if (running.decrementAndGet() == 0) {
            CarrierWatchdog.unwatch(this);
        }
        if (crash != null || !closed) {
            Throwable why = crash != null ? crash : new IllegalStateException(w + " stopped");
            broken = why;
            failures.carrierDied(why);
        }
        wakeAll();
    }

    private void wakeAll() {
        for (Worker w : workers) {
            w.wakeIfParked();
        }
    }

    /**
     * {@code action} runs when an idle carrier of this pool is interrupted while no fiber is left: the default
     * scheduler, which nobody closes, retires then, so that its threads end when an application's teardown
     * (such as {@code mvn exec:java}'s) interrupts them. Other pools ignore an interrupt: their owner closes them.
     */
    public void onInterruptedWhenIdle(Runnable action) {
        this.interruptedWhenIdle = action;
    }

    /** An idle carrier found itself interrupted (its status is cleared): see {@link #onInterruptedWhenIdle}. */
    void carrierInterrupted() {
        Runnable action = interruptedWhenIdle;
        if (action != null && !closed && liveFibers() == 0) {
            action.run();
        }
    }

    /** Refuses new fibers and lets the carriers stop once no fiber can run. */
    public void close() {
        closed = true;
        wakeAll();
    }

    /** Whether every carrier has stopped. */
    public boolean isTerminated() {
        return running.get() == 0;
    }
}
