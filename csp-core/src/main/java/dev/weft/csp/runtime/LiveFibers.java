package dev.weft.csp.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.function.Predicate;

/**
 * The fibers started on one worker that have not ended yet, for fiber dumps and deadlock reports: a doubly
 * linked list through the fibers' own fields, so adding and removing allocate nothing. A fiber is removed
 * from the list it was added to (its home), wherever it ends; a tiny lock ({@link RuntimeLock}), almost always
 * uncontended, guards the links. A fiber that ends on another worker is removed a little later, with the
 * others that ended there, under one lock ({@link #removeRun}, see {@link Worker#endedHere}): until then
 * the list may hold a fiber that is done (a few dozen per carrier at most; none of a {@code Weft.run} that
 * has returned, and none once the pool is at rest).
 */
final class LiveFibers {
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(LiveFibers.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RuntimeLock lock = new RuntimeLock();
    /** Written under the lock with release stores (no fence of its own: the lock has one); read without it. */
    private volatile int count;
    private Schedulable head;

    int count() {
        return count;
    }

    void add(Schedulable c) {
        lock.lock();
        link(c);
        COUNT.setRelease(this, count + 1); // under the lock: no fence needed, readers of count() want a recent value
        lock.unlock();
    }

    /**
     * Takes out every fiber that {@code which} accepts, for a {@link DeadlockProbe}, and returns the first (the
     * rest follow through {@code liveNext}). The count stays: the fibers still live.
     */
    Schedulable detachIf(Predicate<Schedulable> which) {
        Schedulable taken = null;
        lock.lock();
        try {
            for (Schedulable c = head; c != null; ) {
                Schedulable next = c.liveNext;
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
    void reattach(Schedulable c) {
        lock.lock();
        link(c);
        lock.unlock();
    }

    private void unlink(Schedulable c) {
        Schedulable p = c.livePrev;
        Schedulable n = c.liveNext;
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

    private void link(Schedulable c) {
        c.liveNext = head;
        c.livePrev = null;
        if (head != null) {
            head.livePrev = c;
        }
        head = c;
    }

    void remove(Schedulable c) {
        lock.lock();
        unlink(c);
        COUNT.setRelease(this, count - 1); // as in add()
        lock.unlock();
    }

    /**
     * Removes {@code first} and the fibers that follow it through {@link Schedulable#next} while they are of
     * this list, under one lock; returns the first that is not (or null). Clears the links it follows.
     */
    Schedulable removeRun(Schedulable first) {
        Schedulable c = first;
        int removed = 0;
        lock.lock();
        try {
            do {
                Schedulable next = (Schedulable) c.next;
                c.next = null;
                unlink(c);
                removed++;
                c = next;
            } while (c != null && c.home.live == this);
        } finally {
            COUNT.setRelease(this, count - removed); // as in add()
            lock.unlock();
        }
        return c;
    }

    /** Adds every live fiber to {@code out}. */
    void snapshot(List<Schedulable> out) {
        lock.lock();
        try {
            for (Schedulable c = head; c != null; c = c.liveNext) {
                out.add(c);
            }
        } finally {
            lock.unlock();
        }
    }

}
