package dev.weft.csp;

/**
 * The parties waiting on one side of a channel, in arrival order: fibers blocked in a read or write, and
 * alternatives registered on a guard. A ring linked through the waiters themselves ({@link Fiber#nextWaiter()},
 * {@link Selection.Registration#nextWaiter}; each waits in one queue at most), so that queueing never
 * allocates: an {@link OutOfMemoryError} cannot strike under the channel's lock. The queue is known by its
 * last waiter alone, whose link leads back to the first: one field, which the channel keeps for each of its
 * ends ({@link #last()}), so that an end holds nothing but its channel. Used under the channel's lock only.
 */
abstract class WaitQueue {
    /** The last waiter, whose link is the first; null while nobody waits. */
    abstract Object last();

    abstract void last(Object waiter);

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
        return last() == null;
    }

    final Object peek() {
        Object l = last();
        return l == null ? null : next(l);
    }

    final void add(Object waiter) {
        Object l = last();
        if (l == null) {
            setNext(waiter, waiter);
        } else {
            setNext(waiter, next(l));
            setNext(l, waiter);
        }
        last(waiter);
    }

    final Object poll() {
        Object l = last();
        if (l == null) {
            return null;
        }
        Object f = next(l);
        if (f == l) {
            last(null);
        } else {
            setNext(l, next(f));
        }
        setNext(f, null);
        return f;
    }

    /** Removes {@code waiter}; false if it was not queued. */
    final boolean remove(Object waiter) {
        Object l = last();
        if (l == null) {
            return false;
        }
        Object prev = l;
        for (;;) {
            Object w = next(prev);
            if (w == waiter) {
                if (w == prev) {
                    last(null); // it was alone
                } else {
                    setNext(prev, next(w));
                    if (w == l) {
                        last(prev);
                    }
                }
                setNext(w, null);
                return true;
            }
            if (w == l) {
                return false;
            }
            prev = w;
        }
    }

    /** Whether a plain (non-alternative) waiter other than {@code me} is queued. */
    final boolean hasFiberOtherThan(Fiber me) {
        Object l = last();
        if (l == null) {
            return false;
        }
        for (Object w = next(l); ; w = next(w)) {
            if (w instanceof Fiber && w != me) {
                return true;
            }
            if (w == l) {
                return false;
            }
        }
    }

    /**
     * Empties the queue and returns its first waiter, the others chained behind it (the last one's link null):
     * take each one's successor with {@link #detach} before waking it.
     */
    final Object drain() {
        Object l = last();
        if (l == null) {
            return null;
        }
        Object f = next(l);
        setNext(l, null);
        last(null);
        return f;
    }

    /**
     * Takes every alternative's registration out of the queue, leaving the fibers in their order; returns them
     * chained as {@link #drain()} does.
     */
    final Object drainSelections() {
        Object taken = null;
        Object takenLast = null;
        for (Object w = drain(), n; w != null; w = n) {
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
