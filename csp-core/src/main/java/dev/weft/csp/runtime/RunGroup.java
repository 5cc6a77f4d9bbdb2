package dev.weft.csp.runtime;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The fibers of one {@code Weft.run} call: its main process and everything spawned within it. The thread in
 * {@code Weft.run} waits for events here: the last fiber ended, main failed, a deadlock was found, a carrier
 * died. Whatever ends the run, the group keeps what led to it: main's failure, the deadlock report, and the
 * failures of fibers nobody joined.
 */
public final class RunGroup {
    /** Failures of unjoined fibers kept for the run's report; the scheduler's handler has printed every one. */
    private static final int KEPT_FAILURES = 8;

    private final AtomicInteger live = new AtomicInteger();
    private final Thread waiter;
    /**
     * The main fiber, held weakly: the thread that waits in {@code Weft.run} keeps the group, and must not keep
     * main's fiber reachable through it, or a deadlock probe would always find the run reachable.
     */
    private volatile WeakReference<Object> main;
    private volatile Throwable mainFailure;
    /** Whether main ended by its own cancellation; written before {@link #mainFailure}. */
    private boolean mainCancelled;
    private volatile Throwable deadlock;
    private volatile Throwable crash;
    private volatile boolean cancelling;
    private List<Throwable> unjoined;

    /** A group whose events wake {@code waiter}, the thread that runs {@code Weft.run}. */
    public RunGroup(Thread waiter) {
        this.waiter = waiter;
    }

    /** Records the main fiber, whose exception the caller of {@code Weft.run} rethrows. */
    public void setMain(Object fiber) {
        this.main = new WeakReference<>(fiber);
    }

    /** Whether {@code fiber} is this group's main fiber. */
    public boolean isMain(Object fiber) {
        WeakReference<Object> m = main;
        return m != null && m.get() == fiber;
    }

    /** Counts a fiber that is about to start. */
    public void started() {
        live.incrementAndGet();
    }

    /**
     * Counts {@code n} fibers at once, ahead of their start: a carrier's credit for the fibers that its running
     * fiber goes on to spawn (see {@link WorkerPool#started}); the group cannot finish while it is held.
     */
    void reserve(int n) {
        live.addAndGet(n);
    }

    /** Gives back {@code n} counts of {@link #reserve} that no fiber used. */
    void release(int n) {
        if (live.addAndGet(-n) == 0) {
            LockSupport.unpark(waiter);
        }
    }

    /** Counts a fiber that ended, with its failure or null; {@code cancelled}: it had been cancelled. */
    public void ended(Object fiber, Throwable failure, boolean cancelled) {
        if (failure != null && isMain(fiber)) {
            mainCancelled = cancelled;
            mainFailure = failure;
            LockSupport.unpark(waiter); // the rest of the run is cancelled at once, not when it ends
        }
        if (live.decrementAndGet() == 0) {
            LockSupport.unpark(waiter);
        }
    }

    /** Whether every fiber of the group has ended. */
    public boolean isFinished() {
        return live.get() == 0;
    }

    /** What main threw, or null. */
    public Throwable mainFailure() {
        return mainFailure;
    }

    /** Whether main had been cancelled when it ended by {@link #mainFailure()} (read after that). */
    public boolean mainCancelled() {
        return mainCancelled;
    }

    /** Whether main has ended by an exception. */
    public boolean mainFailed() {
        return mainFailure != null;
    }

    /**
     * Reports that the group's live fibers can never run again: {@code Weft.run} cancels them and throws
     * {@code report}. False if the group had already finished, deadlocked or been cancelled.
     */
    public synchronized boolean fail(Throwable report) {
        if (deadlock != null || cancelling || isFinished()) {
            return false;
        }
        deadlock = report;
        LockSupport.unpark(waiter);
        return true;
    }

    /** The deadlock report, or null. */
    public Throwable deadlock() {
        return deadlock;
    }

    /** Whether the group deadlocked or is being cancelled (the deadlock check leaves it alone). */
    public boolean hasFailed() {
        return deadlock != null || cancelling;
    }

    /** A carrier of the scheduler died: the run cannot be trusted to end and fails at once. */
    public void crash(Throwable error) {
        if (crash == null) {
            crash = error;
        }
        LockSupport.unpark(waiter);
    }

    /** Why a carrier died, or null. */
    public Throwable crash() {
        return crash;
    }

    /** Marks the group as being cancelled: fibers spawned into it from now on start cancelled. */
    public void markCancelling() {
        cancelling = true;
    }

    /** Whether {@link #markCancelling()} was called. */
    public boolean isCancelling() {
        return cancelling;
    }

    /** Keeps the failure of a fiber of this group that nobody joined (the first few). */
    public synchronized void unjoinedFailure(Throwable t) {
        if (unjoined == null) {
            unjoined = new ArrayList<>(2);
        }
        if (unjoined.size() < KEPT_FAILURES) {
            unjoined.add(t);
        }
    }

    /** The failures of unjoined fibers kept so far. */
    public synchronized List<Throwable> unjoinedFailures() {
        return unjoined == null ? List.of() : new ArrayList<>(unjoined);
    }

    /** Blocks the waiting thread until the next event (or spuriously). */
    public void awaitEvent() throws InterruptedException {
        LockSupport.park(this);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }
}
