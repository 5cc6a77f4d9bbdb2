package dev.weft.csp;

import dev.weft.csp.runtime.Carrier;
import dev.weft.csp.abi.Continuation;
import dev.weft.csp.runtime.FiberPrimitives;
import dev.weft.csp.runtime.Schedulable;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.RuntimeEvents;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.TimerEntry;
import dev.weft.csp.runtime.UnjoinedFailures;
import dev.weft.csp.runtime.WorkerPool;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * A lightweight process: the handle {@link Weft#spawn(CSProcess)} returns, and the continuation that woven
 * code carries. {@link #join()} waits for it to end; {@link #isDone()} asks without waiting.
 *
 * <p>Each plain Java thread that calls a pausable method gets a thread-bound fiber of its own: its pauses
 * block that thread instead of unwinding.
 */
public final class Fiber extends Schedulable {
    static {
        FiberPrimitives.install(new Primitives()); // first: woven code reaches the primitives through them
    }

    // Scheduling states. A wake-up that arrives while the fiber is still running (it registered with a
    // channel and is unwinding) is remembered by RUNNING_WOKEN, so it is never lost.
    // QUEUED: parked in a channel's wait queue; only the channel wakes it, so that wake-up needs no CAS.
    // THREAD_BOUND: a plain thread's own fiber, for ever (its pauses block the thread: see permit).
    private static final int RUNNABLE = 0, RUNNING_STATE = 1, RUNNING_WOKEN = 2, PARKED = 3, DONE = 4, QUEUED = 5,
            THREAD_BOUND = 6;
    // How the running slice ends (pauseKind). YIELDING: set by yield() as the fiber unwinds; once re-queued
    // (YIELDED), its state word is left as it was, so a wake-up that arrived meanwhile (RUNNING_WOKEN) is still
    // there for its next park(). INTO_CHANNEL: unwinding into the wait queue of the channel end it waits on
    // (its blocker), whose lock it holds until it has unwound (see parkLocked).
    private static final byte NOT_YIELDING = 0, YIELDING = 1, YIELDED = 2, INTO_CHANNEL = 3;
    /** {@link #joiners} of a fiber that was joined, with nobody waiting now. */
    private static final Object JOINED = new Object();
    /** Back-edges a preemptive fiber passes between two looks at whether others wait for its carrier. */
    static final int PREEMPT_CHECKS = Math.max(1, Integer.getInteger("weft.preemptChecks", 8192));
    private static final AtomicIntegerFieldUpdater<Fiber> STATE =
            AtomicIntegerFieldUpdater.newUpdater(Fiber.class, "state");
    private static final ThreadLocal<Fiber> THREAD_FIBER = new ThreadLocal<>();
    private static final MethodHandle RUN_WOVEN = wovenRun();

    // Each field below carries what no other field can (a fiber blocked on a channel is most of what a program
    // with millions of processes holds): the pool is its home worker's (homePool()), a thread's own
    // fiber keeps its thread where a fiber keeps its process, the failure takes the joiners' place once they
    // are woken, and the rare FiberLocal values share a side object with the run.

    /** What the fiber runs: its {@link CSProcess}, or, for a plain thread's own fiber, that {@link Thread}. */
    private final Object process;
    /**
     * The run this fiber belongs to (a {@link RunGroup}, or null outside every run), or, once the fiber has
     * {@link FiberLocal} values, a {@link Locals} holding that run and the values.
     */
    private Object runAndLocals;
    private volatile int state;
    /** A plain thread's own fiber: a wake-up not yet taken (see {@link #blockThread}). */
    private volatile boolean permit;
    /** Set by {@link #cancel()}: every pause from then on throws {@link CancelledException}. */
    private volatile boolean cancelled;
    /**
     * Who waits in {@link #join()}: null (never joined), {@link #JOINED} (nobody now), the one fiber (the usual
     * case: no list), or a list of them. A branch of {@link Parallel} also has its par here, as an
     * {@link EndWatcher}: from its start, so that the par hears of its end, and of its failure, first. Once the
     * fiber has ended (written before {@link #DONE}, so that whoever sees it done sees this): what it threw, or
     * null; a failure that nobody had joined is held in an {@link UnjoinedFailures.Entry}, which the first join
     * claims (then the scheduler's handler never hears of it).
     */
    private Object joiners;
    private byte pauseKind;
    /**
     * What the fiber waits on while parked (a channel end, a barrier, a timer, a blocking call), or null. A
     * channel operation sets it before it takes the channel's lock, so that {@link #cancel()} finds the queue
     * the fiber may be in (see there).
     */
    private Object blocker;

    /**
     * Set while the fiber performs the channel operation that follows its {@link Select}'s choice, to which a
     * partner may have committed: a cancellation neither refuses it nor withdraws its wait (the next pause
     * throws instead). Written before the operation takes the channel's lock, read under that lock.
     */
    boolean committed;
    /** A value handed over by the party that woke this fiber (a channel's writer, for one). */
    Object transfer;
    /** The {@link #transfer} of a fiber whose wait {@link #cancel()} withdrew: the operation throws. */
    static final Object WITHDRAWN = new Object();

    /**
     * A run's {@link RunGroup} with this fiber's {@link FiberLocal} values: made when the fiber first has some,
     * so that a fiber without any pays no field for them. The run is final: other threads read it through
     * {@link #group()} while the fiber changes its values.
     */
    private static final class Locals {
        final RunGroup group;
        /** Used by the fiber only. */
        final Map<FiberLocal<?>, Object> values;

        Locals(RunGroup group, Map<FiberLocal<?>, Object> values) {
            this.group = group;
            this.values = values;
        }
    }

    /** A fiber for {@code process} in run {@code group} (or none): {@link #launch} queues it. */
    Fiber(CSProcess process, RunGroup group) {
        this.process = process;
        this.runAndLocals = group;
    }

    private Fiber(Thread thread) {
        this.process = thread;
        this.state = THREAD_BOUND;
    }

    private static MethodHandle wovenRun() {
        try {
            return MethodHandles.publicLookup().findVirtual(CSProcess.class, "run",
                    MethodType.methodType(void.class, Fiber.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("csp-core was not woven: CSProcess.run(Fiber) is missing", e);
        }
    }

    /** Whether the process has ended, normally or by an exception. Never true for a thread's own fiber. */
    public boolean isDone() {
        return state == DONE;
    }

    /**
     * Waits for this fiber to end; rethrows the very exception its process threw, if it threw (a fiber that was
     * cancelled and ended by it throws {@link CancelledException}). From a fiber this pauses it; from a plain
     * thread it blocks the thread.
     *
     * @throws CancelledException if the waiting fiber is cancelled (or the waiting thread interrupted) first
     */
    @Pausable
    public void join() {
        if (isThreadBound()) {
            throw new IllegalStateException("a thread's own fiber never ends: join a fiber from Weft.spawn");
        }
        awaitEnd(true);
        Throwable t = failure();
        if (t != null) {
            throw Rethrow.unchecked(t);
        }
    }

    /**
     * Waits at most {@code timeout} for this fiber to end: false if it has not ended by then; true if it has, and
     * then, as {@link #join()}, rethrows what it threw. A zero or negative timeout only looks; a huge one waits
     * for ever.
     *
     * @throws CancelledException if the waiting fiber is cancelled (or the waiting thread interrupted) first
     */
    @Pausable
    public boolean join(Duration timeout) {
        if (timeout == null) {
            throw new NullPointerException("timeout is null");
        }
        if (isThreadBound()) {
            throw new IllegalStateException("a thread's own fiber never ends: join a fiber from Weft.spawn");
        }
        if (!awaitEndUntil(Deadlines.after(current().nanoTime(), timeout))) {
            return false;
        }
        Throwable t = failure();
        if (t != null) {
            throw Rethrow.unchecked(t);
        }
        return true;
    }

    /** Waits for this fiber to end until {@code deadline}: true if it ended. Cancellable. */
    @Pausable
    private boolean awaitEndUntil(long deadline) {
        Fiber me = current();
        if (me.cancelPending()) {
            throw me.cancelledError();
        }
        if (deadline == Deadlines.NEVER) {
            awaitEnd(true);
            return true;
        }
        if (Deadlines.passed(deadline, me.nanoTime())) { // also keeps the timer heap free of "now"
            return state == DONE;
        }
        if (!addJoiner(me)) {
            return true;
        }
        if (me.isThreadBound()) {
            return me.awaitEndOnThread(this, deadline);
        }
        TimerEntry alarm = me.pool().wakeAt(deadline, me::unpark);
        try {
            while (state != DONE) {
                waitOn(this);
                if (state == DONE) {
                    break;
                }
                if (me.cancelPending() && removeJoiner(me)) {
                    throw me.cancelledError();
                }
                if (Deadlines.passed(deadline, me.nanoTime()) && removeJoiner(me)) {
                    return false;
                }
            }
        } finally {
            alarm.cancel();
        }
        return true;
    }

    /**
     * {@link #awaitEndUntil} on this plain thread's own fiber, where each wake-up is a permit taken exactly once:
     * the ending fiber gives one to each joiner still listed; a joiner that took itself off the list gets none.
     */
    private boolean awaitEndOnThread(Fiber target, long deadline) {
        for (;;) {
            if (blockThreadUntil(deadline)) {
                if (target.state == DONE) {
                    return true;
                }
                continue; // a stray unpark()
            }
            boolean interrupted = thread().isInterrupted();
            if (target.removeJoiner(this)) {
                if (interrupted) {
                    throw cancelledError();
                }
                return false;
            }
            awaitPermitUninterruptibly(); // it ended just now: take its wake-up
            return true;
        }
    }

    /**
     * Waits for this fiber to end without rethrowing what it threw. If {@code cancellable}, a cancellation of
     * the waiter ends the wait with {@link CancelledException}; otherwise the wait goes on regardless (for
     * cleanup that must see its fibers end, as {@link Parallel} does).
     */
    @Pausable
    void awaitEnd(boolean cancellable) {
        Fiber me = current();
        if (cancellable && me.cancelPending()) {
            throw me.cancelledError();
        }
        if (state == DONE || !addJoiner(me)) { // done: no monitor (its end, maybe on another carrier, wrote it last)
            return;
        }
        if (!cancellable && me.isThreadBound()) {
            while (state != DONE) {
                me.awaitPermitUninterruptibly();
            }
            return;
        }
        while (state != DONE) {
            waitOn(this);
            if (state != DONE && me.cancelPending() && removeJoiner(me)) {
                throw me.cancelledError();
            }
        }
    }

    /** Whether {@link #cancel()} was called on this fiber. */
    public boolean isCancelled() {
        return isThreadBound() ? thread().isInterrupted() : cancelled;
    }

    /**
     * Cancels this fiber: its current pause, if it is paused, and every later one throw
     * {@link CancelledException}, so that it unwinds (its {@code finally} blocks run) and ends. The wait it
     * was in is withdrawn first: a cancelled write delivered nothing, a cancelled read took nothing. Safe from
     * any thread, idempotent; a fiber that has ended ignores it. A fiber that never pauses again ends as it
     * would have. On a plain thread's own fiber ({@link #current()} outside a scheduler) this interrupts that
     * thread, which has the same effect on its pausable operations.
     */
    public void cancel() {
        if (isThreadBound()) {
            thread().interrupt();
            return;
        }
        if (cancelled) {
            return;
        }
        StackReserve.forOperation(); // before anything changes: see unpark()
        cancelled = true;
        if (state == DONE) {
            return;
        }
        // A fiber in a channel's queue is woken only by whoever takes it out, under the channel's lock. It wrote
        // its blocker before taking that lock and reads `cancelled` after (the lock's CAS is a full fence): if the
        // blocker read here is not the channel it queues on, it sees `cancelled` and does not queue.
        Object b = blocker;
        if (b instanceof ChannelImpl.End && ((ChannelImpl.End) b).withdraw(this)) {
            transfer = WITHDRAWN;
            wakeFromChannel();
            return;
        }
        unparkReserved(); // any other wait loops on its condition and withdraws itself once it sees the cancellation
    }

    /** Whether the running operation must stop: this fiber was cancelled, or this thread was interrupted. */
    boolean cancelPending() {
        return cancelled || (state == THREAD_BOUND && thread().isInterrupted()); // a thread's fiber is never cancelled
    }

    /** The exception a cancelled fiber's (or interrupted thread's) pause throws. */
    CancelledException cancelledError() {
        return new CancelledException(isThreadBound() ? "the thread " + thread().getName() + " was interrupted"
                : this + " was cancelled");
    }

    /**
     * Withdraws {@code f}'s wait on {@code blocker}, if it is still waiting there: true if it was (the wait is
     * now cancelled, nothing was exchanged), false if a partner has already taken it (the partner owns its
     * wake-up, which is on its way).
     */
    static boolean withdraw(Object blocker, Fiber f) {
        if (blocker instanceof ChannelImpl.End) {
            return ((ChannelImpl.End) blocker).withdraw(f);
        }
        if (blocker instanceof Selection) {
            return ((Selection) blocker).claim(Selection.CANCELLED);
        }
        if (blocker instanceof Barrier) {
            return ((Barrier) blocker).withdraw(f);
        }
        if (blocker instanceof Fiber) {
            return ((Fiber) blocker).removeJoiner(f);
        }
        if (blocker instanceof Readiness) {
            return ((Readiness) blocker).withdraw(f);
        }
        return true; // a bare park: nothing registered anywhere
    }

    private synchronized boolean addJoiner(Fiber waiter) {
        if (state == DONE) {
            return false;
        }
        Object j = joiners;
        if (j == null || j == JOINED) {
            joiners = waiter;
        } else if (j instanceof List) {
            @SuppressWarnings("unchecked")
            List<Object> list = (List<Object>) j;
            list.add(waiter);
        } else {
            List<Object> list = new ArrayList<>(2);
            list.add(j);
            list.add(waiter);
            joiners = list;
        }
        return true;
    }

    /** The watcher this fiber was started with, if any (it stays among the joiners until the end). */
    private EndWatcher watcher() {
        // Read without the lock: the ending fiber's own field, where a watcher is set before the fiber starts and
        // only ever moves into a list; a fiber with no watcher (spawn and join) takes no monitor here.
        Object j = joiners;
        if (j instanceof EndWatcher) {
            return (EndWatcher) j;
        }
        return j instanceof List ? watcherAmongJoiners() : null;
    }

    private synchronized EndWatcher watcherAmongJoiners() {
        Object j = joiners;
        if (j instanceof List) {
            for (Object o : (List<?>) j) {
                if (o instanceof EndWatcher) {
                    return (EndWatcher) o;
                }
            }
        }
        return null;
    }

    /** Removes {@code waiter} from the joiners; false if this fiber has ended (it woke or is waking them). */
    private synchronized boolean removeJoiner(Fiber waiter) {
        Object j = joiners;
        if (j == waiter) {
            joiners = JOINED;
            return true;
        }
        return state != DONE && j instanceof List && ((List<?>) j).remove(waiter); // once done: what it threw
    }

    // ---------------------------------------------------------------- primitives (hand-woven)

    /**
     * The running fiber: the caller's fiber inside woven code, the thread's own fiber otherwise.
     * Runtime use; the woven form below is what fibers execute.
     */
    @Pausable
    public static Fiber current() {
        return forThread();
    }

    /** Woven form of {@link #current()}. */
    static Fiber current(Fiber f) {
        return f;
    }

    /**
     * Pauses the running fiber until {@link #unpark()} is called on it; a wake-up that came first is
     * not lost. It may also return without one (as {@link LockSupport#park()} may): call it in a loop that
     * checks what it waits for. On a plain thread this blocks the thread.
     *
     * @throws CancelledException if the fiber is cancelled (or the thread interrupted), before or while it waits
     */
    @Pausable
    public static void park() {
        forThread().blockThread(null);
    }

    /** Woven form of {@link #park()}: marks the fiber as pausing, or completes the resume. */
    static void park(Fiber f) {
        parkOn(null, f);
    }

    /**
     * As {@link #park()}, recording what the fiber waits on ({@code blocker}: a channel, a barrier...) for
     * fiber dumps and deadlock reports.
     */
    @Pausable
    public static void parkOn(Object blocker) {
        forThread().blockThread(null);
    }

    /** Woven form of {@link #parkOn(Object)}. */
    static void parkOn(Object blocker, Fiber f) {
        if (f.mode != RESUMING && f.cancelPending()) {
            throw f.cancelledError();
        }
        waitOn(blocker, f);
    }

    /**
     * As {@link #parkOn(Object)} for the runtime's own primitives, which register the fiber with
     * {@code blocker} first: no check for cancellation here (each primitive withdraws its registration, then
     * throws); on a plain thread an interrupt withdraws the wait from {@code blocker} ({@link #withdraw}).
     */
    @Pausable
    static void waitOn(Object blocker) {
        forThread().blockThread(blocker);
    }

    /** Woven form of {@link #waitOn(Object)}. */
    static void waitOn(Object blocker, Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
            f.blocker = null;
        } else {
            int s = f.state;
            if (s == THREAD_BOUND) {
                f.blockThread(blocker);
            } else if (s == RUNNING_WOKEN) {
                f.state = RUNNING_STATE; // woken before it could pause: go on without unwinding
            } else {
                f.blocker = blocker;
                f.mode = PAUSING;
            }
        }
    }

    /**
     * Pauses the running fiber in the wait queue of {@code channel}, whose lock the caller holds and has
     * queued the fiber under. The lock stays held while the fiber unwinds and is released once it has
     * unwound (see {@link #runSlice}): whoever finds the fiber in the queue then owns its wake-up
     * ({@link #wakeFromChannel}), so neither side needs an atomic read-modify-write on the fiber. The
     * channel's wake-up is the only one: {@link #unpark()} leaves such a fiber alone.
     *
     * <p>A plain thread releases the lock itself before it calls this (in its own frame, where a failure
     * handler can tell whether the release happened) and blocks here.
     */
    @Pausable
    static void parkLocked(ChannelImpl.End end) {
        forThread().blockThread(end);
    }

    /** Woven form of {@link #parkLocked(ChannelImpl.End)}. */
    static void parkLocked(ChannelImpl.End end, Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
            f.blocker = null;
        } else if (f.isThreadBound()) {
            f.blockThread(end);
        } else {
            f.blocker = end;
            f.pauseKind = INTO_CHANNEL;
            f.mode = PAUSING;
        }
    }

    /** Wakes a fiber that a channel took out of its wait queue (after {@link #parkLocked}); any thread. */
    void wakeFromChannel() {
        if (isThreadBound()) {
            unparkReserved();
            return;
        }
        STATE.lazySet(this, RUNNABLE);
        pool().submit(this);
    }

    /**
     * Lets the other runnable fibers of this carrier run first: the running fiber goes to the back of its
     * worker's queue. On a plain thread this is {@link Thread#yield()}.
     */
    @Pausable
    public static void yield() {
        Thread.yield();
    }

    /** Woven form of {@link #yield()}. */
    static void yield(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (f.isThreadBound()) {
            Thread.yield();
        } else {
            f.pauseKind = YIELDING;
            f.mode = PAUSING;
        }
    }

    /**
     * A preemption check to place in a long loop by hand: every {@code weft.preemptChecks} calls (default
     * 8192, counted per carrier) the fiber yields if other fibers wait for its carrier; otherwise it costs a decrement
     * and a branch. Does nothing on a plain thread. (The weaver's preemptive mode keeps its counter in a
     * local variable instead and calls {@link #yieldIfOthersWait()}.)
     */
    @Pausable
    public static void yieldIfDue() {
        // a plain thread is never preempted by Weft
    }

    /** Woven form of {@link #yieldIfDue()}. */
    static void yieldIfDue(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING; // back from the yield below
        } else if (f.yieldCheckDue(PREEMPT_CHECKS) && f.pool().hasOtherWorkHere()) {
            f.pauseKind = YIELDING;
            f.mode = PAUSING;
        }
    }

    /**
     * Yields if other fibers wait for this carrier, else goes on at once. The weaver's preemptive mode calls
     * it from loop back-edges, every {@code PREEMPT_CHECKS} passes of a counter kept in a local variable.
     * Does nothing on a plain thread.
     */
    @Pausable
    public static void yieldIfOthersWait() {
        // a plain thread is never preempted by Weft
    }

    /** Woven form of {@link #yieldIfOthersWait()}. */
    static void yieldIfOthersWait(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (!f.isThreadBound() && f.pool().hasOtherWorkHere()) {
            f.pauseKind = YIELDING;
            f.mode = PAUSING;
        }
    }

    /**
     * A scheduling point of a simulated run ({@link Scheduler#simulated}): the fiber yields if the simulation
     * draws so. Channel operations call it behind {@link Simulation#anyCreated()} (a program on real time pays
     * one static read for it), selections when their fiber's pool is simulated.
     */
    @Pausable
    static void simulationPoint() {
        // a plain thread is never simulated
    }

    /** Woven form of {@link #simulationPoint()}. */
    static void simulationPoint(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (!f.isThreadBound()) {
            Simulation s = f.pool().simulation();
            if (s != null && s.preempt()) {
                f.pauseKind = YIELDING;
                f.mode = PAUSING;
            }
        }
    }

    /**
     * The time this fiber's deadlines are measured on: its scheduler's clock (virtual on a simulated one), or
     * {@link System#nanoTime()} for a plain thread's own fiber.
     */
    long nanoTime() {
        return isThreadBound() ? System.nanoTime() : pool().nanoTime();
    }


    /**
     * Makes a parked fiber runnable again; safe from any thread, and from the fiber itself. A caller whose
     * stack is nearly full gets {@link StackOverflowError} before anything changed, not a wake-up half done.
     */
    public void unpark() {
        StackReserve.forOperation();
        unparkReserved();
    }

    /** As {@link #unpark()}, for the runtime's operations, which have checked the stack already. */
    void unparkReserved() {
        for (;;) {
            int s = state;
            if (s == PARKED) {
                if (STATE.compareAndSet(this, PARKED, RUNNABLE)) {
                    pool().submit(this);
                    return;
                }
            } else if (s == RUNNING_STATE) {
                if (STATE.compareAndSet(this, RUNNING_STATE, RUNNING_WOKEN)) {
                    return;
                }
            } else if (s == THREAD_BOUND) {
                permit = true;
                LockSupport.unpark(thread());
                return;
            } else {
                return; // already runnable, already woken, or ended
            }
        }
    }

    /**
     * Blocks this thread's own fiber until unparked. If the thread is interrupted first, its wait on
     * {@code blocker} is withdrawn and {@link CancelledException} thrown (interrupt status kept); if a partner
     * took the wait first, its wake-up is awaited and the operation completes.
     */
    private void blockThread(Object blocker) {
        while (!permit) {
            if (thread().isInterrupted()) {
                if (withdraw(blocker, this)) {
                    throw cancelledError();
                }
                awaitPermitUninterruptibly();
                return;
            }
            LockSupport.park(this);
        }
        permit = false;
    }

    /** Blocks this thread's own fiber until unparked, whatever interrupts come (they are kept for later). */
    void awaitPermitUninterruptibly() {
        boolean interrupted = Thread.interrupted();
        while (!permit) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        permit = false;
        if (interrupted) {
            thread().interrupt();
        }
    }

    /**
     * Blocks this thread's own fiber until unparked (true), or until {@code deadline} passes or the thread is
     * interrupted (false, the permit untouched).
     */
    boolean blockThreadUntil(long deadline) {
        while (!permit) {
            long wait = Deadlines.remaining(deadline, System.nanoTime());
            if (wait == 0 || thread().isInterrupted()) {
                return false;
            }
            if (wait == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, wait);
            }
        }
        permit = false;
        return true;
    }

    /** Whether this is a plain thread's own fiber (pauses block the thread). */
    boolean isThreadBound() {
        return state == THREAD_BOUND;
    }

    /** The thread of a plain thread's own fiber. */
    private Thread thread() {
        return (Thread) process;
    }

    /** The pool this fiber runs in (its home worker's); null for a plain thread's own fiber. */
    WorkerPool pool() {
        return homePool();
    }

    /** The run this fiber belongs to, or null. Any thread. */
    RunGroup group() {
        Object r = runAndLocals;
        return r instanceof Locals ? ((Locals) r).group : (RunGroup) r;
    }

    /** This fiber's {@link FiberLocal} values, or null while it has none. Used by this fiber only. */
    Map<FiberLocal<?>, Object> locals() {
        Object r = runAndLocals;
        return r instanceof Locals ? ((Locals) r).values : null;
    }

    /** This fiber's {@link FiberLocal} values, made empty if it has none yet. Used by this fiber only. */
    Map<FiberLocal<?>, Object> localsToChange() {
        Object r = runAndLocals;
        if (r instanceof Locals) {
            return ((Locals) r).values;
        }
        Locals l = new Locals((RunGroup) r, new IdentityHashMap<>(4));
        runAndLocals = l;
        return l.values;
    }

    /** What this fiber threw, once it has ended (see {@link #joiners}); null if it ended normally. */
    private Throwable failure() {
        Object j = joiners;
        if (j instanceof UnjoinedFailures.Entry) {
            UnjoinedFailures.Entry held = (UnjoinedFailures.Entry) j;
            held.claim(); // joined after all: the failure is this joiner's, never the handler's
            return held.failure();
        }
        return j instanceof Throwable ? (Throwable) j : null;
    }

    /** The next waiter after this fiber in the channel wait queue it waits in ({@link WaitQueue}); under its lock. */
    Object nextWaiter() {
        return waitLink();
    }

    /** Links {@code waiter} after this fiber in its channel wait queue; under that channel's lock. */
    void nextWaiter(Object waiter) {
        waitLink(waiter);
    }

    /** The fiber bound to the calling plain thread; refused on a carrier, where blocking would stall fibers. */
    static Fiber forThread() {
        return forThread(null);
    }

    /**
     * As {@link #forThread()}, for woven code that calls {@code pausable} (a method's name) from a method that
     * is not pausable.
     */
    static Fiber forThread(String pausable) {
        Thread t = Thread.currentThread();
        if (t instanceof Carrier) {
            throw new IllegalStateException(CarrierMisuse.message(pausable));
        }
        Fiber f = THREAD_FIBER.get();
        if (f == null) {
            f = new Fiber(t);
            THREAD_FIBER.set(f);
        }
        return f;
    }

    // ---------------------------------------------------------------- running on a carrier

    @Override
    protected void runSlice() {
        for (;;) {
            if (pauseKind == YIELDED) {
                pauseKind = NOT_YIELDING; // still RUNNING (or RUNNING_WOKEN) since it yielded
            } else {
                // A release store is enough: a waker finds this fiber only through a later synchronizing
                // action of it (a channel CAS), which makes this store visible first.
                STATE.lazySet(this, RUNNING_STATE);
            }
            if (hasSavedFrames()) {
                mode = RESUMING;
                RuntimeEvents.fiberResumed(this);
            } else if (cancelled) {
                end(cancelledError()); // cancelled before it ever ran: it does not start
                return;
            } else {
                mode = RUNNING;
            }
            try {
                RUN_WOVEN.invokeExact((CSProcess) process, this);
            } catch (AbstractMethodError | NoSuchMethodError | IllegalAccessError | BootstrapMethodError e) {
                end(Unwoven.explain(e, process));
                return;
            } catch (Throwable t) {
                end(t);
                return;
            }
            if (mode != PAUSING) {
                end(null);
                return;
            }
            mode = RUNNING;
            if (pauseKind == INTO_CHANNEL) {
                pauseKind = NOT_YIELDING;
                RuntimeEvents.fiberParking(this, blocker); // before the unlock, after which it may be woken
                STATE.lazySet(this, QUEUED);
                ((ChannelImpl.End) blocker).channel().unlock(); // the channel's next party may wake it from now on
                return;
            }
            if (pauseKind == YIELDING) {
                pauseKind = YIELDED;
                pool().yielded(this); // to the back of this carrier's queue
                return;
            }
            RuntimeEvents.fiberParking(this, blocker);
            if (STATE.compareAndSet(this, RUNNING_STATE, PARKED)) {
                return;
            }
            // A wake-up arrived while the fiber unwound: resume it at once.
        }
    }

    private void end(Throwable t) {
        try {
            if (pauseKind == INTO_CHANNEL) { // it failed as it unwound into a channel wait: leave the queue, free the lock
                pauseKind = NOT_YIELDING;
                ((ChannelImpl.End) blocker).channel().abandon(this);
            }
            clearSavedFrames();
            mode = RUNNING;
            RuntimeEvents.fiberEnded(this, t);
            EndWatcher watcher = watcher();
            if (watcher != null) {
                watcher.ending(this, t); // before DONE: whoever sees this fiber done sees what the watcher did
            }
            RunGroup group = group();
            // A failure nobody has joined yet is held until it is certain that nobody will (see UnjoinedFailures);
            // the entry is made before the lock, so that nothing under it can fail (an OutOfMemoryError).
            UnjoinedFailures.Entry entry = null;
            boolean reportable = t != null && !(group != null && group.isMain(this))
                    && !(cancelled && t instanceof CancelledException);
            if (reportable) {
                try {
                    entry = UnjoinedFailures.hold(this, t, pool(), group);
                } catch (Throwable noRoom) {
                    // out of memory: reported at once below, if nobody waits
                }
            }
            Object waiting;
            synchronized (this) {
                waiting = joiners;
                joiners = entry != null && waiting == null ? entry : t; // before DONE: see join()
                state = DONE;
            }
            boolean held = reportable && waiting == null;
            if (entry != null && !held) {
                entry.claim(); // its joiners take it
            } else if (entry == null && held) {
                pool().uncaught(String.valueOf(this), t);
            }
            if (waiting instanceof List) {
                for (Object w : (List<?>) waiting) {
                    wakeJoiner(w);
                }
            } else {
                wakeJoiner(waiting);
            }
            blocker = null;
            Object promise = transfer;
            transfer = null;
            pool().ended(this);
            if (held && group != null) {
                group.unjoinedFailure(t);
            }
            if (promise instanceof Selection.Registration) { // a select's promise its process never kept
                ChannelImpl.breakPromise((Selection.Registration) promise);
            }
        } finally {
            RunGroup group = group();
            if (group != null) {
                group.ended(this, t, cancelled); // whatever failed above, the run must learn that this fiber ended
            }
        }
    }

    /** Tells {@code joiner}, a fiber or a watcher among this ended fiber's joiners (or null), that it is done. */
    private void wakeJoiner(Object joiner) {
        if (joiner instanceof Fiber) {
            ((Fiber) joiner).unpark();
        } else if (joiner instanceof EndWatcher) {
            ((EndWatcher) joiner).ended(this);
        }
    }

    /** A new fiber starts with the {@link FiberLocal} values of the fiber (or plain thread) that starts it. */
    private void inheritLocals() {
        Fiber spawner = runningFiber();
        if (spawner == null && !(Thread.currentThread() instanceof Carrier)) {
            spawner = THREAD_FIBER.get();
        }
        Map<FiberLocal<?>, Object> inherited = spawner == null ? null : spawner.locals();
        if (inherited != null && !inherited.isEmpty()) {
            runAndLocals = new Locals(group(), new IdentityHashMap<>(inherited));
        }
    }

    /** Starts a new fiber for {@code p} in the given pool and run group. */
    static Fiber start(CSProcess p, WorkerPool pool, RunGroup group) {
        return start(p, pool, group, null);
    }

    /**
     * Starts a new fiber for {@code p} where {@link Weft#spawn(CSProcess)} would: in the running fiber's pool
     * and run, or, from a plain thread, on the default scheduler. {@code watcher} (or null) hears its end.
     */
    static Fiber spawn(CSProcess p, EndWatcher watcher) {
        Fiber parent = runningFiber();
        if (parent != null) {
            return start(p, parent.pool(), parent.group(), watcher);
        }
        return start(p, Scheduler.defaultScheduler().pool, null, watcher);
    }

    /**
     * Starts a new fiber for {@code p} whose end {@code watcher} (if not null) hears first, before anyone can
     * see the fiber done: a par's branch runs the user's process itself, with no frame of the par's around it.
     */
    static Fiber start(CSProcess p, WorkerPool pool, RunGroup group, EndWatcher watcher) {
        Fiber f = new Fiber(p, group);
        f.joiners = watcher;
        f.launch(pool);
        return f;
    }

    /**
     * Queues this new fiber for its first run. A fiber of a run that is being cancelled starts cancelled (it
     * ends at once). If the scheduler refuses it (closed), the run does not count it and the refusal is thrown.
     * The pool records itself in the fiber as it queues it (see {@link #pool()}).
     */
    void launch(WorkerPool pool) {
        inheritLocals();
        RunGroup group = group();
        if (group != null) {
            pool.started(group);
            cancelled = group.isCancelling();
        }
        STATE.lazySet(this, RUNNABLE); // no fence: the queue that takes it publishes it
        RuntimeEvents.fiberSpawned(this, pool.name());
        try {
            pool.submitNew(this);
        } catch (RuntimeException | Error e) {
            state = DONE;
            if (group != null) {
                group.ended(this, null, cancelled);
            }
            throw e;
        }
        if (group != null && group.isCancelling()) {
            cancel(); // the run began cancelling as this fiber joined it: it may have missed the sweep
        }
    }

    /** Cancels every live fiber of {@code pool} that belongs to {@code run}. */
    static void cancelAll(WorkerPool pool, RunGroup run) {
        for (Schedulable c : pool.liveSnapshot()) {
            Fiber f = (Fiber) c;
            if (f.group() == run) {
                f.cancel();
            }
        }
    }

    /** The fiber running on the calling carrier thread, or null on a plain thread. */
    static Fiber runningFiber() {
        return (Fiber) WorkerPool.runningHere();
    }


    Thread carrierThread() {
        return lastCarrier();
    }

    /** Whether the fiber is parked (a volatile read: what it did before parking is visible after it). */
    boolean isParked() {
        int s = state;
        return s == PARKED || s == QUEUED;
    }

    /** Records {@code b} as what the fiber is about to wait on: before it takes {@code b}'s lock (see {@link #cancel()}). */
    void willWaitOn(Object b) {
        blocker = b;
    }

    /** What the fiber waits on while parked, or null. */
    Object blocker() {
        return blocker;
    }

    /** The scheduling state, for dumps: runnable, running, parked or done. */
    String stateName() {
        switch (state) {
            case RUNNABLE: return "runnable";
            case RUNNING_STATE: case RUNNING_WOKEN: return pauseKind == YIELDED ? "runnable (yielded)" : "running";
            case PARKED: case QUEUED: return "parked";
            case THREAD_BOUND: return "on its thread";
            default: return "done";
        }
    }

    /** What this fiber runs, for people: see {@link ProcessNames}. */
    String processName() {
        return ProcessNames.of(process, this);
    }

    @Override
    public String toString() {
        return isThreadBound() ? "Fiber[thread " + thread().getName() + "]"
                : "Fiber@" + Integer.toHexString(System.identityHashCode(this)) + "[" + processName() + "]";
    }

    /** The woven forms above as {@link dev.weft.csp.abi.HandWoven} (the weaver's ABI) calls them. */
    private static final class Primitives extends FiberPrimitives {
        @Override
        public void parkOn(Object blocker, Continuation fiber) {
            Fiber.parkOn(blocker, (Fiber) fiber);
        }

        @Override
        public void yield(Continuation fiber) {
            Fiber.yield((Fiber) fiber);
        }

        @Override
        public void yieldIfDue(Continuation fiber) {
            Fiber.yieldIfDue((Fiber) fiber);
        }

        @Override
        public void yieldIfOthersWait(Continuation fiber) {
            Fiber.yieldIfOthersWait((Fiber) fiber);
        }

        @Override
        public Continuation forThread(String pausable) {
            return Fiber.forThread(pausable);
        }
    }
}
