package dev.weft.csp;

import dev.weft.csp.internal.ApiAccess;
import dev.weft.csp.internal.ChannelQueue;
import dev.weft.csp.internal.Deadlines;
import dev.weft.csp.internal.FiberLifecycle;
import dev.weft.csp.internal.FiberPauses;
import dev.weft.csp.internal.FiberState;
import dev.weft.csp.internal.Joiners;
import dev.weft.csp.internal.ProcessNames;
import dev.weft.csp.internal.ThreadMode;
import dev.weft.csp.internal.Unwoven;
import dev.weft.csp.runtime.FiberPrimitives;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.RuntimeEvents;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.WorkerPool;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A lightweight process: the handle {@link Weft#spawn(CSProcess)} returns, and the continuation that woven
 * code carries. {@link #join()} waits for it to end; {@link #isDone()} asks without waiting.
 *
 * <p>Each plain Java thread that calls a pausable method gets a thread-bound fiber of its own: its pauses
 * block that thread instead of unwinding.
 */
@SuppressWarnings("exports") // FiberState, its superclass, is internal on purpose: its members are all protected
public final class Fiber extends FiberState {
    // This class is the handle and a carrier's slice; its fields and wake-ups are FiberState's, its internal
    // superclass, and the rest works on those fields from classes of one concern each in dev.weft.csp.internal,
    // so that a fiber stays one object of 72 bytes: FiberPauses (the woven forms of the primitives), ThreadMode (a
    // plain thread's own fiber), Joiners (join and the end's watcher), FiberLifecycle (start, launch, end),
    // FiberLocalValues, FiberDump.
    static {
        FiberPrimitives.install(new FiberPauses.Installed()); // first: woven code reaches the primitives through them
        ApiAccess.install(new Access()); // the internals' way in (dev.weft.csp.internal)
    }

    private static final MethodHandle RUN_WOVEN = wovenRun();

    /** A fiber for {@code process} in run {@code group} (or none): {@link FiberLifecycle#launch} queues it. */
    Fiber(CSProcess process, RunGroup group) {
        super(process);
        this.runAndLocals = group;
    }

    /** The fiber of a plain thread (see {@link ThreadMode#forThread()}). */
    Fiber(Thread thread) {
        super(thread);
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

    /** What this fiber runs, for people: see {@link ProcessNames}. */
    String processName() {
        return ProcessNames.of(process, this);
    }

    @Override
    public String toString() {
        return isThreadBound() ? "Fiber[thread " + thread().getName() + "]"
                : "Fiber@" + Integer.toHexString(System.identityHashCode(this)) + "[" + processName() + "]";
    }

    /** The API package's members that its internals need (see {@link ApiAccess}). */
    private static final class Access extends ApiAccess {
        @Override
        protected Fiber newFiber(CSProcess process, RunGroup group) {
            return new Fiber(process, group);
        }

        @Override
        protected Fiber newFiber(Thread thread) {
            return new Fiber(thread);
        }

        @Override
        protected WorkerPool pool(Scheduler scheduler) {
            return scheduler.pool;
        }

        @Override
        protected Scheduler simulated(Simulation simulation) {
            return Scheduler.simulated(simulation);
        }

        @Override
        protected boolean withdraw(Barrier barrier, Fiber f) {
            return barrier.withdraw(f);
        }

        @Override
        protected boolean withdraw(Readiness readiness, Fiber f) {
            return readiness.withdraw(f);
        }

        @Override
        protected boolean onlyUsedBy(Barrier barrier, WorkerPool pool, boolean creatorCounts) {
            return barrier.onlyUsedBy(pool, creatorCounts);
        }
    }
}
