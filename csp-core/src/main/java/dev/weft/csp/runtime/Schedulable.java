package dev.weft.csp.runtime;

import dev.weft.csp.abi.Continuation;

/**
 * What the workers schedule: a {@link Continuation} (the saved frames woven code reads and writes) with the
 * links the runtime keeps it by: its run queue or wait queue, its home worker, its place in that worker's live
 * list. A fiber is one; so is a deadlock probe.
 */
public abstract class Schedulable extends Continuation {
    /**
     * The next continuation in whichever run queue or inbox holds this one, or, while the fiber waits in a
     * channel's wait queue, the next waiter there ({@link #waitLink()}). One field for both: a fiber in a wait
     * queue is parked, in no run queue, and each queue clears the link as it lets the fiber go.
     */
    Object next;
    /**
     * The worker whose {@link LiveFibers} list holds this continuation while it lives (set when it is first
     * queued, kept after it ends): external wake-ups go there, and its pool is the fiber's ({@link #homePool()}).
     */
    Worker home;
    Schedulable liveNext;
    Schedulable livePrev;

    /** The carrier thread running this continuation now, or null (for dumps: a best-effort look). */
    public final Thread lastCarrier() {
        Worker h = home;
        return h == null ? null : h.pool.carrierRunning(this);
    }

    /** The pool this continuation was queued in, or null if it never was (a plain thread's own fiber). */
    protected final WorkerPool homePool() {
        Worker h = home;
        return h == null ? null : h.pool;
    }

    /** The next waiter after this fiber in the channel wait queue that holds it (see {@link #next}). */
    protected final Object waitLink() {
        return next;
    }

    /** Links the waiter after this fiber in its channel wait queue (see {@link #next}). */
    protected final void waitLink(Object waiter) {
        next = waiter;
    }

    /**
     * Counts one hand-placed preemption check of the running slice: true once every {@code every} checks on this
     * carrier (the count belongs to the carrier, not to each fiber, which saves a fiber four bytes). False on a
     * plain thread.
     */
    protected final boolean yieldCheckDue(int every) {
        Worker w = Worker.current();
        return w != null && w.countYieldCheck(every);
    }

    /** Runs the fiber until it pauses or ends; called by the worker that dequeued it. */
    protected abstract void runSlice();
}
