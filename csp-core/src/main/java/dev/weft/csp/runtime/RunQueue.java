package dev.weft.csp.runtime;

/**
 * A worker's active batch: the FIFO it dispatches from, where the fibers its running fiber wakes join it.
 * In a pool of several workers another worker may take fibers out of it (see {@link Worker}'s stuck-slice
 * stealing), so every change happens under a small lock ({@link RuntimeLock}); with one worker the lock is
 * skipped and the queue costs plain field updates.
 */
final class RunQueue {
    private final FiberQueue queue = new FiberQueue();
    /** Null with one worker. */
    private final RuntimeLock lock;

    RunQueue(boolean shared) {
        this.lock = shared ? new RuntimeLock() : null;
    }

    private void lock() {
        if (lock != null) {
            lock.lock();
        }
    }

    private void unlock() {
        if (lock != null) {
            lock.unlock();
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

    void add(Schedulable c) {
        lock();
        queue.add(c);
        unlock();
    }

    Schedulable poll() {
        lock();
        Schedulable c = queue.poll();
        unlock();
        return c;
    }

    /** Removes the fiber at {@code index} (0 is the oldest): a simulation's random pick (one worker, no lock). */
    Schedulable take(int index) {
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
    Schedulable first() {
        return queue.first();
    }
}
