package dev.weft.csp.runtime;

import java.util.List;

/**
 * The fibers started on one worker that have not ended yet, for fiber dumps and deadlock reports: a doubly
 * linked list through the fibers' own fields, so adding and removing allocate nothing. A fiber is removed
 * from the list it was added to (its home), wherever it ends; a tiny lock ({@link RuntimeLock}), almost always
 * uncontended, guards the links.
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
        c.liveNext = head;
        c.livePrev = null;
        if (head != null) {
            head.livePrev = c;
        }
        head = c;
        count = count + 1;
        lock.unlock();
    }

    void remove(Continuation c) {
        lock.lock();
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
        count = count - 1;
        lock.unlock();
    }

    /** Adds every live fiber to {@code out}. */
    void snapshot(List<Continuation> out) {
        lock.lock();
        try {
            for (Continuation c = head; c != null; c = c.liveNext) {
                out.add(c);
            }
        } finally {
            lock.unlock();
        }
    }

}
