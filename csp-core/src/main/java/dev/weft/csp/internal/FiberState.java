package dev.weft.csp.internal;

import dev.weft.csp.CSProcess;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Fiber;
import dev.weft.csp.FiberLocal;
import dev.weft.csp.Parallel;
import dev.weft.csp.Select;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.Schedulable;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.WorkerPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * A fiber's state: the fields of {@link Fiber} and what works on them directly, for the classes of this package.
 * Its members are protected: this package reads and writes them on every channel operation, with no call in
 * between, and {@code Fiber}, the only subclass, is final, so they are not part of its API. The API package's
 * other classes reach them through {@link FiberAccess}.
 */
public abstract class FiberState extends Schedulable {
    // Scheduling states. A wake-up that arrives while the fiber is still running (it registered with a
    // channel and is unwinding) is remembered by RUNNING_WOKEN, so it is never lost.
    // QUEUED: parked in a channel's wait queue; only the channel wakes it, so that wake-up needs no CAS.
    // THREAD_BOUND: a plain thread's own fiber, for ever (its pauses block the thread: see wakeups).
    protected static final int RUNNABLE = 0, RUNNING_STATE = 1, RUNNING_WOKEN = 2, PARKED = 3, DONE = 4, QUEUED = 5,
            THREAD_BOUND = 6;
    // How the running slice ends (pauseKind). YIELDING: set by yield() as the fiber unwinds; once re-queued
    // (YIELDED), its state word is left as it was, so a wake-up that arrived meanwhile (RUNNING_WOKEN) is still
    // there for its next park(). INTO_CHANNEL: unwinding into the wait queue of the channel end it waits on
    // (its blocker), whose lock it holds until it has unwound (see FiberPauses.parkLocked).
    protected static final byte NOT_YIELDING = 0, YIELDING = 1, YIELDED = 2, INTO_CHANNEL = 3;
    /** Back-edges a preemptive fiber passes between two looks at whether others wait for its carrier. */
    protected static final int PREEMPT_CHECKS = Math.max(1, Integer.getInteger("weft.preemptChecks", 8192));
    protected static final AtomicIntegerFieldUpdater<FiberState> STATE =
            AtomicIntegerFieldUpdater.newUpdater(FiberState.class, "state");
    // A plain thread's wake-ups (wakeups). PERMIT: an unpark() or the runtime's wake-up of a wait that checks its
    // condition again. HANDED_OVER: the channel the thread queued on took it out (wakeFromChannel); apart from
    // PERMIT, because a channel wait does not check again, and an unpark() meant for a later park() must not end it.
    protected static final byte PERMIT = 1, HANDED_OVER = 2;
    private static final VarHandle WAKEUPS = wakeupsHandle();

    // Each field below carries what no other field can (a fiber blocked on a channel is most of what a program
    // with millions of processes holds): the pool is its home worker's (homePool()), a thread's own
    // fiber keeps its thread where a fiber keeps its process, the failure takes the joiners' place once they
    // are woken, and the rare FiberLocal values share a side object with the run. Fiber and the classes of this
    // package of one concern each (FiberPauses, ThreadMode, Joiners, FiberLifecycle, FiberLocalValues, FiberDump,
    // the channels) read and write them.

    /** What the fiber runs: its {@link CSProcess}, or, for a plain thread's own fiber, that {@link Thread}. */
    protected final Object process;
    /**
     * The run this fiber belongs to (a {@link RunGroup}, or null outside every run), or, once the fiber has
     * {@link FiberLocal} values, a {@link FiberLocalValues} holding that run and the values.
     */
    protected Object runAndLocals;
    protected volatile int state;
    /**
     * A plain thread's own fiber: the wake-ups given and not yet taken, bits {@link #PERMIT} and
     * {@link #HANDED_OVER} (see {@link ThreadMode}). One byte, so that a fiber stays 72 bytes.
     */
    protected volatile byte wakeups;
    /** Set by {@link Fiber#cancel()}: every pause from then on throws {@link CancelledException}. */
    protected volatile boolean cancelled;
    /**
     * Who waits in {@link Fiber#join()}, under this fiber's monitor (see {@link Joiners}): null (never joined),
     * {@link Joiners#JOINED} (nobody now), the one fiber (the usual case: no list), or a list of them. A branch of
     * {@link Parallel} also has its par here, as an {@link EndWatcher}: from its start, so that the par hears of
     * its end, and of its failure, first. Once the fiber has ended (written before {@link #DONE}, so that whoever
     * sees it done sees this): what it threw, or null; a failure that nobody had joined is held in an
     * {@link dev.weft.csp.runtime.UnjoinedFailures.Entry}, which the first join claims (then the scheduler's
     * handler never hears of it).
     */
    protected Object joiners;
    /** How the running slice ends: {@link #NOT_YIELDING} and the others above. Written by the fiber's carrier. */
    protected byte pauseKind;
    /**
     * What the fiber waits on while parked (a channel end, a barrier, a timer, a blocking call), or null. A
     * channel operation sets it before it takes the channel's lock, so that {@link Fiber#cancel()} finds the queue
     * the fiber may be in (see there).
     */
    protected Object blocker;

    /**
     * Set while the fiber performs the channel operation that follows its {@link Select}'s choice, to which a
     * partner may have committed: a cancellation neither refuses it nor withdraws its wait (the next pause
     * throws instead). So such an operation waits only for a partner bound to come, and otherwise returns
     * without exchanging anything (see {@link ChannelImpl}'s invariant 7). Written before the operation takes the
     * channel's lock, read under that lock.
     */
    protected boolean committed;
    /** A value handed over by the party that woke this fiber (a channel's writer, for one). */
    protected Object transfer;
    /** The {@link #transfer} of a fiber whose wait {@link Fiber#cancel()} withdrew: the operation throws. */
    protected static final Object WITHDRAWN = new Object();

    /** The state of a fiber that runs {@code process} (a {@link CSProcess}, or a plain thread). */
    protected FiberState(Object process) {
        this.process = process;
    }

    private static VarHandle wakeupsHandle() {
        try {
            return MethodHandles.lookup().findVarHandle(FiberState.class, "wakeups", byte.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // ---------------------------------------------------------------- cancellation

    /** Whether the running operation must stop: this fiber was cancelled, or this thread was interrupted. */
    protected boolean cancelPending() {
        return cancelled || (state == THREAD_BOUND && thread().isInterrupted()); // a thread's fiber is never cancelled
    }

    /** The exception a cancelled fiber's (or interrupted thread's) pause throws. */
    protected CancelledException cancelledError() {
        return new CancelledException(isThreadBound() ? "the thread " + thread().getName() + " was interrupted"
                : this + " was cancelled");
    }

    // ---------------------------------------------------------------- wake-ups

    /** As {@link Fiber#unpark()}, for the runtime's operations, which have checked the stack already. */
    protected void unparkReserved() {
        wake(false);
    }

    /**
     * As {@link Fiber#unpark()}, for a wake-up by I/O that the calling carrier polled (a socket's bytes): the fiber
     * runs on that carrier, where its socket lives, and no idle carrier steals it meanwhile (see
     * {@link WorkerPool#submitPolled}).
     */
    protected void unparkPolled() {
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
    protected boolean take(byte kind) {
        if ((wakeups & kind) == 0) {
            return false;
        }
        WAKEUPS.getAndBitwiseAnd(this, (byte) ~kind); // atomic: the other kind may be given meanwhile
        return true;
    }

    /** Wakes a fiber that a channel took out of its wait queue (after {@link FiberPauses#parkLocked}); any thread. */
    protected void wakeFromChannel() {
        if (isThreadBound()) {
            give(HANDED_OVER);
            return;
        }
        // The channel's lock made the taker its only waker (no CAS), and the queue that takes the fiber publishes
        // this store with it; a release store orders the writes of the exchange (transfer) before it.
        STATE.lazySet(this, RUNNABLE);
        pool().submit(this);
    }

    // ---------------------------------------------------------------- what the rest of the runtime asks

    /**
     * The time this fiber's deadlines are measured on: its scheduler's clock (virtual on a simulated one), or
     * {@link System#nanoTime()} for a plain thread's own fiber.
     */
    protected long nanoTime() {
        return isThreadBound() ? System.nanoTime() : pool().nanoTime();
    }

    /** Whether this is a plain thread's own fiber (pauses block the thread). */
    protected boolean isThreadBound() {
        return state == THREAD_BOUND;
    }

    /** The thread of a plain thread's own fiber. */
    protected Thread thread() {
        return (Thread) process;
    }

    /** The pool this fiber runs in (its home worker's); null for a plain thread's own fiber. */
    protected WorkerPool pool() {
        return homePool();
    }

    /** The run this fiber belongs to, or null. Any thread. */
    protected RunGroup group() {
        return FiberLocalValues.group(runAndLocals);
    }

    /** The next waiter after this fiber in the channel wait queue it waits in ({@link WaitQueue}); under its lock. */
    protected Object nextWaiter() {
        return waitLink();
    }

    /** Links {@code waiter} after this fiber in its channel wait queue; under that channel's lock. */
    protected void nextWaiter(Object waiter) {
        waitLink(waiter);
    }

    /** Counts a hand-placed preemption check: true once every {@code every} on this fiber's carrier. */
    protected boolean preemptCheckDue(int every) {
        return yieldCheckDue(every);
    }

    /** The fiber running on the calling carrier thread, or null on a plain thread. */
    protected static Fiber runningFiber() {
        return (Fiber) WorkerPool.runningHere();
    }

    protected Thread carrierThread() {
        return lastCarrier();
    }

    /** Whether the fiber is parked (a volatile read: what it did before parking is visible after it). */
    protected boolean isParked() {
        int s = state;
        return s == PARKED || s == QUEUED;
    }

    /** Records {@code b} as what the fiber is about to wait on: before it takes {@code b}'s lock (see {@link Fiber#cancel()}). */
    protected void willWaitOn(Object b) {
        blocker = b;
    }

    /** What the fiber waits on while parked, or null. */
    protected Object blocker() {
        return blocker;
    }
}
