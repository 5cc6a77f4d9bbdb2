package dev.weft.csp;

import dev.weft.csp.runtime.FiberPrimitives;
import dev.weft.csp.runtime.Schedulable;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.RuntimeEvents;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.WorkerPool;
import dev.weft.csp.spi.ApiBridge;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.time.Duration;
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
    // This class is the handle and the state machine (the fields, the wake-ups, a carrier's slice); the rest works
    // on its fields from classes of one concern each, so that a fiber stays one object of 72 bytes: FiberPauses
    // (the woven forms of the primitives), ThreadMode (a plain thread's own fiber), Joiners (join and the end's
    // watcher), FiberLifecycle (start, launch, end), FiberLocalValues, FiberDump.
    static {
        FiberPrimitives.install(new FiberPauses.Installed()); // first: woven code reaches the primitives through them
        ApiBridge.install(new LibraryAccess()); // the SPI's way in (dev.weft.csp.spi.Extensions)
    }

    // Scheduling states. A wake-up that arrives while the fiber is still running (it registered with a
    // channel and is unwinding) is remembered by RUNNING_WOKEN, so it is never lost.
    // QUEUED: parked in a channel's wait queue; only the channel wakes it, so that wake-up needs no CAS.
    // THREAD_BOUND: a plain thread's own fiber, for ever (its pauses block the thread: see wakeups).
    static final int RUNNABLE = 0, RUNNING_STATE = 1, RUNNING_WOKEN = 2, PARKED = 3, DONE = 4, QUEUED = 5,
            THREAD_BOUND = 6;
    // How the running slice ends (pauseKind). YIELDING: set by yield() as the fiber unwinds; once re-queued
    // (YIELDED), its state word is left as it was, so a wake-up that arrived meanwhile (RUNNING_WOKEN) is still
    // there for its next park(). INTO_CHANNEL: unwinding into the wait queue of the channel end it waits on
    // (its blocker), whose lock it holds until it has unwound (see FiberPauses.parkLocked).
    static final byte NOT_YIELDING = 0, YIELDING = 1, YIELDED = 2, INTO_CHANNEL = 3;
    /** Back-edges a preemptive fiber passes between two looks at whether others wait for its carrier. */
    static final int PREEMPT_CHECKS = Math.max(1, Integer.getInteger("weft.preemptChecks", 8192));
    static final AtomicIntegerFieldUpdater<Fiber> STATE = AtomicIntegerFieldUpdater.newUpdater(Fiber.class, "state");
    // A plain thread's wake-ups (wakeups). PERMIT: an unpark() or the runtime's wake-up of a wait that checks its
    // condition again. HANDED_OVER: the channel the thread queued on took it out (wakeFromChannel); apart from
    // PERMIT, because a channel wait does not check again, and an unpark() meant for a later park() must not end it.
    static final byte PERMIT = 1, HANDED_OVER = 2;
    private static final VarHandle WAKEUPS = wakeupsHandle();
    private static final MethodHandle RUN_WOVEN = wovenRun();

    // Each field below carries what no other field can (a fiber blocked on a channel is most of what a program
    // with millions of processes holds): the pool is its home worker's (homePool()), a thread's own
    // fiber keeps its thread where a fiber keeps its process, the failure takes the joiners' place once they
    // are woken, and the rare FiberLocal values share a side object with the run. The classes named above
    // read and write them; nothing else outside this class should.

    /** What the fiber runs: its {@link CSProcess}, or, for a plain thread's own fiber, that {@link Thread}. */
    final Object process;
    /**
     * The run this fiber belongs to (a {@link RunGroup}, or null outside every run), or, once the fiber has
     * {@link FiberLocal} values, a {@link FiberLocalValues} holding that run and the values.
     */
    Object runAndLocals;
    volatile int state;
    /**
     * A plain thread's own fiber: the wake-ups given and not yet taken, bits {@link #PERMIT} and
     * {@link #HANDED_OVER} (see {@link ThreadMode}). One byte, so that a fiber stays 72 bytes.
     */
    volatile byte wakeups;
    /** Set by {@link #cancel()}: every pause from then on throws {@link CancelledException}. */
    volatile boolean cancelled;
    /**
     * Who waits in {@link #join()}, under this fiber's monitor (see {@link Joiners}): null (never joined),
     * {@link Joiners#JOINED} (nobody now), the one fiber (the usual case: no list), or a list of them. A branch of
     * {@link Parallel} also has its par here, as an {@link EndWatcher}: from its start, so that the par hears of
     * its end, and of its failure, first. Once the fiber has ended (written before {@link #DONE}, so that whoever
     * sees it done sees this): what it threw, or null; a failure that nobody had joined is held in an
     * {@link dev.weft.csp.runtime.UnjoinedFailures.Entry}, which the first join claims (then the scheduler's
     * handler never hears of it).
     */
    Object joiners;
    /** How the running slice ends: {@link #NOT_YIELDING} and the others above. Written by the fiber's carrier. */
    byte pauseKind;
    /**
     * What the fiber waits on while parked (a channel end, a barrier, a timer, a blocking call), or null. A
     * channel operation sets it before it takes the channel's lock, so that {@link #cancel()} finds the queue
     * the fiber may be in (see there).
     */
    Object blocker;

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

    /** A fiber for {@code process} in run {@code group} (or none): {@link FiberLifecycle#launch} queues it. */
    Fiber(CSProcess process, RunGroup group) {
        this.process = process;
        this.runAndLocals = group;
    }

    /** The fiber of a plain thread (see {@link ThreadMode#forThread()}). */
    Fiber(Thread thread) {
        this.process = thread;
        this.state = THREAD_BOUND;
    }

    private static VarHandle wakeupsHandle() {
        try {
            return MethodHandles.lookup().findVarHandle(Fiber.class, "wakeups", byte.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
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
        refuseThreadBound();
        Joiners.awaitEnd(this, true);
        Joiners.rethrowFailure(this);
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
        refuseThreadBound();
        if (!Joiners.awaitEndUntil(this, Deadlines.after(current().nanoTime(), timeout))) {
            return false;
        }
        Joiners.rethrowFailure(this);
        return true;
    }

    private void refuseThreadBound() {
        if (isThreadBound()) {
            throw new IllegalStateException("a thread's own fiber never ends: join a fiber from Weft.spawn");
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
        if (b instanceof ChannelQueue && ((ChannelQueue) b).withdraw(this)) {
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

    // ------------------------------------- the public primitives: thread forms here, woven forms in FiberPauses

    /**
     * The running fiber: the caller's fiber inside woven code, the thread's own fiber otherwise.
     * Runtime use; the woven form below is what fibers execute.
     */
    @Pausable
    public static Fiber current() {
        return ThreadMode.forThread();
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
        ThreadMode.block(ThreadMode.forThread(), null);
    }

    /** Woven form of {@link #park()}. */
    static void park(Fiber f) {
        FiberPauses.parkOn(null, f);
    }

    /**
     * As {@link #park()}, recording what the fiber waits on ({@code blocker}: a channel, a barrier...) for
     * fiber dumps and deadlock reports.
     */
    @Pausable
    public static void parkOn(Object blocker) {
        ThreadMode.block(ThreadMode.forThread(), null);
    }

    /** Woven form of {@link #parkOn(Object)}. */
    static void parkOn(Object blocker, Fiber f) {
        FiberPauses.parkOn(blocker, f);
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
        FiberPauses.yield(f);
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
        FiberPauses.yieldIfDue(f);
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
        FiberPauses.yieldIfOthersWait(f);
    }

    // ---------------------------------------------------------------- wake-ups

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
        wake(false);
    }

    /**
     * As {@link #unpark()}, for a wake-up by I/O that the calling carrier polled (a socket's bytes): the fiber
     * runs on that carrier, where its socket lives, and no idle carrier steals it meanwhile (see
     * {@link WorkerPool#submitPolled}).
     */
    void unparkPolled() {
        StackReserve.forOperation();
        wake(true);
    }

    private void wake(boolean polled) {
        for (;;) {
            int s = state;
            if (s == PARKED) {
                if (STATE.compareAndSet(this, PARKED, RUNNABLE)) { // one waker wins: it alone queues the fiber
                    if (polled) {
                        pool().submitPolled(this);
                    } else {
                        pool().submit(this);
                    }
                    return;
                }
            } else if (s == RUNNING_STATE) {
                if (STATE.compareAndSet(this, RUNNING_STATE, RUNNING_WOKEN)) { // runSlice's CAS to PARKED then fails
                    return;
                }
            } else if (s == THREAD_BOUND) {
                give(PERMIT);
                return;
            } else {
                return; // already runnable, already woken, or ended
            }
        }
    }

    /**
     * Gives this plain thread's fiber wake-up {@code kind} and unparks the thread. Atomic: another kind may be
     * given at once. The giver's writes before it (a channel's transfer) are visible to the thread that takes it.
     */
    private void give(byte kind) {
        WAKEUPS.getAndBitwiseOr(this, kind);
        LockSupport.unpark(thread());
    }

    /** Takes wake-up {@code kind} if it was given (true); only the fiber's own thread calls this. */
    boolean take(byte kind) {
        if ((wakeups & kind) == 0) {
            return false;
        }
        WAKEUPS.getAndBitwiseAnd(this, (byte) ~kind); // atomic: the other kind may be given meanwhile
        return true;
    }

    /** Wakes a fiber that a channel took out of its wait queue (after {@link FiberPauses#parkLocked}); any thread. */
    void wakeFromChannel() {
        if (isThreadBound()) {
            give(HANDED_OVER);
            return;
        }
        // The channel's lock made the taker its only waker (no CAS), and the queue that takes the fiber publishes
        // this store with it; a release store orders the writes of the exchange (transfer) before it.
        STATE.lazySet(this, RUNNABLE);
        pool().submit(this);
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
                // A release store: the unlock's own release (or the lot's monitor) publishes it to the next party.
                STATE.lazySet(this, QUEUED);
                ((ChannelQueue) blocker).pausedInQueue(); // the channel's next party may wake it from now on
                return;
            }
            if (pauseKind == YIELDING) {
                pauseKind = YIELDED;
                pool().yielded(this); // to the back of this carrier's queue
                return;
            }
            RuntimeEvents.fiberParking(this, blocker);
            if (STATE.compareAndSet(this, RUNNING_STATE, PARKED)) { // fails if a wake-up came while it unwound
                return;
            }
            // A wake-up arrived while the fiber unwound: resume it at once.
        }
    }

    /** The fiber's process has ended, having thrown {@code t} (or null): see {@link FiberLifecycle#end}. */
    private void end(Throwable t) {
        try {
            if (pauseKind == INTO_CHANNEL) { // it failed as it unwound into a channel wait: leave the queue, free the lock
                pauseKind = NOT_YIELDING;
                ((ChannelQueue) blocker).abandon(this);
            }
            clearSavedFrames();
            mode = RUNNING;
            FiberLifecycle.end(this, t);
        } finally {
            RunGroup group = group();
            if (group != null) {
                group.ended(this, t, cancelled); // whatever failed above, the run must learn that this fiber ended
            }
        }
    }

    // ---------------------------------------------------------------- what the rest of the runtime asks

    /**
     * The time this fiber's deadlines are measured on: its scheduler's clock (virtual on a simulated one), or
     * {@link System#nanoTime()} for a plain thread's own fiber.
     */
    long nanoTime() {
        return isThreadBound() ? System.nanoTime() : pool().nanoTime();
    }

    /** Whether this is a plain thread's own fiber (pauses block the thread). */
    boolean isThreadBound() {
        return state == THREAD_BOUND;
    }

    /** The thread of a plain thread's own fiber. */
    Thread thread() {
        return (Thread) process;
    }

    /** The pool this fiber runs in (its home worker's); null for a plain thread's own fiber. */
    WorkerPool pool() {
        return homePool();
    }

    /** The run this fiber belongs to, or null. Any thread. */
    RunGroup group() {
        return FiberLocalValues.group(runAndLocals);
    }

    /** The next waiter after this fiber in the channel wait queue it waits in ({@link WaitQueue}); under its lock. */
    Object nextWaiter() {
        return waitLink();
    }

    /** Links {@code waiter} after this fiber in its channel wait queue; under that channel's lock. */
    void nextWaiter(Object waiter) {
        waitLink(waiter);
    }

    /** Counts a hand-placed preemption check: true once every {@code every} on this fiber's carrier. */
    boolean preemptCheckDue(int every) {
        return yieldCheckDue(every);
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

    /** What this fiber runs, for people: see {@link ProcessNames}. */
    String processName() {
        return ProcessNames.of(process, this);
    }

    @Override
    public String toString() {
        return isThreadBound() ? "Fiber[thread " + thread().getName() + "]"
                : "Fiber@" + Integer.toHexString(System.identityHashCode(this)) + "[" + processName() + "]";
    }
}
