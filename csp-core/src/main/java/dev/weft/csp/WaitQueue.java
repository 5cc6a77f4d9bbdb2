package dev.weft.csp;

/**
 * The parties waiting on one side of a channel, in arrival order: fibers blocked in a read or write, and
 * alternatives registered on a guard. A list linked through the waiters themselves ({@link Fiber#nextWaiter()},
 * {@link Selection.Registration#nextWaiter}; each waits in one queue at most), so that queueing never
 * allocates: an {@link OutOfMemoryError} cannot strike under the channel's lock. Used under the channel's lock
 * only. Each end of a channel is the queue of the parties waiting at it (one object less per channel).
 */
class WaitQueue {
    private Object first;
    private Object last;

    private static Object next(Object waiter) {
        return waiter instanceof Fiber ? ((Fiber) waiter).nextWaiter() : ((Selection.Registration) waiter).nextWaiter;
    }

    private static void setNext(Object waiter, Object next) {
        if (waiter instanceof Fiber) {
            ((Fiber) waiter).nextWaiter(next);
        } else {
            ((Selection.Registration) waiter).nextWaiter = next;
        }
    }

    final boolean isEmpty() {
        return first == null;
    }

    final Object peek() {
        return first;
    }

    final void add(Object waiter) {
        setNext(waiter, null);
        if (first == null) {
            first = waiter;
        } else {
            setNext(last, waiter);
        }
        last = waiter;
    }

    final Object poll() {
        Object f = first;
        if (f != null) {
            first = next(f);
            if (first == null) {
                last = null;
            }
            setNext(f, null);
        }
        return f;
    }

    /** Removes {@code waiter}; false if it was not queued. */
    final boolean remove(Object waiter) {
        Object prev = null;
        for (Object w = first; w != null; prev = w, w = next(w)) {
            if (w == waiter) {
                Object n = next(w);
                if (prev == null) {
                    first = n;
                } else {
                    setNext(prev, n);
                }
                if (last == w) {
                    last = prev;
                }
                setNext(w, null);
                return true;
            }
        }
        return false;
    }

    /** Whether a plain (non-alternative) waiter other than {@code me} is queued. */
    final boolean hasFiberOtherThan(Fiber me) {
        for (Object w = first; w != null; w = next(w)) {
            if (w instanceof Fiber && w != me) {
                return true;
            }
        }
        return false;
    }

    /**
     * Empties the queue and returns its first waiter, the others chained behind it: take each one's successor
     * with {@link #detach} before waking it.
     */
    final Object drain() {
        Object f = first;
        first = null;
        last = null;
        return f;
    }

    /**
     * Takes every alternative's registration out of the queue, leaving the fibers in their order; returns them
     * chained as {@link #drain()} does.
     */
    final Object drainSelections() {
        Object kept = first;
        first = null;
        last = null;
        Object taken = null;
        Object takenLast = null;
        for (Object w = kept, n; w != null; w = n) {
            n = detach(w);
            if (w instanceof Fiber) {
                add(w);
            } else {
                if (taken == null) {
                    taken = w;
                } else {
                    setNext(takenLast, w);
                }
                takenLast = w;
            }
        }
        return taken;
    }

    /** Unlinks a waiter of a chain from {@link #drain()} and returns the next one, or null. */
    static Object detach(Object waiter) {
        Object n = next(waiter);
        setNext(waiter, null);
        return n;
    }
}
