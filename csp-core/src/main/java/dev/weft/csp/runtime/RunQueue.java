package dev.weft.csp.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker's active batch: the FIFO it dispatches from, where the fibers its running fiber wakes join it.
 * In a pool of several workers another worker may take fibers out of it (see {@link Worker}'s stuck-slice
 * stealing), so every change happens under a small spin lock (one compare-and-set to take, a release store
 * to leave); with one worker the lock is skipped and the queue costs plain field updates.
 */
final class RunQueue {
    private static final VarHandle LOCK;

    static {
        try {
            LOCK = MethodHandles.lookup().findVarHandle(RunQueue.class, "locked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final FiberQueue queue = new FiberQueue();
    private final boolean shared;
    private volatile int locked;

    RunQueue(boolean shared) {
        this.shared = shared;
    }

    private void lock() {
        if (shared) {
            StackReserve.forLock(); // a StackOverflowError strikes here, not under the lock (see StackReserve)
            for (int spins = 0; !LOCK.compareAndSet(this, 0, 1); spins++) {
                if (spins < 100) {
                    Thread.onSpinWait(); // held for a few field updates at most...
                } else {
                    Thread.yield(); // ...unless its holder was descheduled
                }
            }
        }
    }

    private void unlock() {
        if (shared) {
            LOCK.setRelease(this, 0);
        }
    }

    /** Whether it looks empty (exact for the owner of a single-worker pool; a hint otherwise). */
    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** The number of fibers (a hint when other workers may steal). */
    int size() {
        return queue.size();
    }

    void add(Continuation c) {
        lock();
        queue.add(c);
        unlock();
    }

    Continuation poll() {
        lock();
        Continuation c = queue.poll();
        unlock();
        return c;
    }

    /** Removes the fiber at {@code index} (0 is the oldest): a simulation's random pick (one worker, no lock). */
    Continuation take(int index) {
        return queue.take(index);
    }

    /** Appends every fiber of {@code b}, in order, and leaves it empty. */
    void takeAll(FiberQueue b) {
        lock();
        queue.takeAll(b);
        unlock();
    }

    /** Moves what {@code inbox} holds to the end; false if it held nothing. */
    boolean drain(Inbox inbox) {
        if (inbox.isEmpty()) {
            return false;
        }
        lock();
        boolean any = inbox.drainTo(queue);
        unlock();
        return any;
    }

    /** Moves every fiber to the end of {@code b}. */
    void moveAllTo(FiberQueue b) {
        lock();
        b.takeAll(queue);
        unlock();
    }

    /** Moves the older half (at least one fiber, if any) to the end of {@code b}. */
    void moveFirstHalfTo(FiberQueue b) {
        lock();
        queue.moveFirstHalfTo(b);
        unlock();
    }

    /** Moves the newer half to the end of {@code b}. */
    void moveSecondHalfTo(FiberQueue b) {
        lock();
        queue.moveSecondHalfTo(b);
        unlock();
    }

    /** The oldest fiber, for dumps (owner only). */
    Continuation first() {
        return queue.first();
    }
}
