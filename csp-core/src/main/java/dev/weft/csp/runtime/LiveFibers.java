package dev.weft.csp.runtime;

import java.util.List;
import java.util.function.Predicate;

/**
 * The fibers homed on one worker that have not ended yet, for fiber dumps, cancellation and deadlock reports: a
 * doubly linked list through the fibers' own fields, so adding and removing allocate nothing. A fiber is added
 * to the list of the worker it is first queued on; a worker that steals a batch of fibers moves them to its
 * own list ({@link #moveTo}), so that fibers stolen as they start and ending where they ran never touch
 * their spawner's list again. A fiber is removed from its home's list wherever it ends; a tiny lock
 * ({@link RuntimeLock}), almost always uncontended, guards the links. The {@link #count} of a list moves with
 * its fibers.
 */
final class LiveFibers {
    private final RuntimeLock lock = new RuntimeLock();
    private volatile int count;
    private Continuation head;

    int count() {
        return count;
    }

    void add(Continuation c) {
        lock.lock();
        link(c);
        count = count + 1;
        lock.unlock();
    }

    /**
     * Takes out every fiber that {@code which} accepts, for a {@link DeadlockProbe}, and returns the first (the
     * rest follow through {@code liveNext}). The count stays: the fibers still live.
     */
    Continuation detachIf(Predicate<Continuation> which) {
        Continuation taken = null;
        lock.lock();
        try {
            for (Continuation c = head; c != null; ) {
                Continuation next = c.liveNext;
                if (which.test(c)) {
                    unlink(c);
                    c.liveNext = taken;
                    taken = c;
                }
                c = next;
            }
        } finally {
            lock.unlock();
        }
        return taken;
    }

    /** Puts back a fiber that {@link #detachIf} took out (it was counted all along). */
    void reattach(Continuation c) {
        lock.lock();
        link(c);
        lock.unlock();
    }

    private void unlink(Continuation c) {
        Continuation p = c.livePrev;
        Continuation n = c.liveNext;
        if (p == null) {
            if (head == c) {
                head = n;
            }
        } else {
            p.liveNext = n;
        }
        if (n != null) {
            n.livePrev = p;
        }
        c.liveNext = null;
        c.livePrev = null;
    }

    private void link(Continuation c) {
        c.liveNext = head;
        c.livePrev = null;
        if (head != null) {
            head.livePrev = c;
        }
        head = c;
    }

    void remove(Continuation c) {
        lock.lock();
        unlink(c);
        count = count - 1;
        lock.unlock();
    }

    /**
     * Moves {@code c}, which is in this list, to {@code to}; the caller holds both locks ({@link #lockBoth}).
     */
    void moveTo(Continuation c, LiveFibers to) {
        unlink(c);
        count = count - 1;
        to.link(c);
        to.count = to.count + 1;
    }

    /** Takes the locks of {@code a} and {@code b} (two lists of one pool) in the pool's order: no two movers deadlock. */
    static void lockBoth(Worker a, Worker b) {
        Worker first = a.index < b.index ? a : b;
        first.live.lock.lock();
        try {
            (first == a ? b : a).live.lock.lock();
        } catch (Throwable t) { // a stack overflow strikes before a lock is taken (see RuntimeLock.lock)
            first.live.lock.unlock();
            throw t;
        }
    }

    /** Leaves the locks that {@link #lockBoth} took. */
    static void unlockBoth(Worker a, Worker b) {
        a.live.lock.unlock();
        b.live.lock.unlock();
    }

    /**
     * Adds every live fiber of {@code workers} to {@code out}: all their lists locked at once (in order), so
     * that a fiber moving from one list to another is seen once, neither missed nor counted twice.
     */
    static void snapshot(Worker[] workers, List<Continuation> out) {
        int locked = 0;
        try {
            for (Worker w : workers) {
                w.live.lock.lock();
                locked++;
            }
            for (Worker w : workers) {
                for (Continuation c = w.live.head; c != null; c = c.liveNext) {
                    out.add(c);
                }
            }
        } finally {
            for (int i = 0; i < locked; i++) {
                workers[i].live.lock.unlock();
            }
        }
    }

}
