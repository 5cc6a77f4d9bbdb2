package dev.weft.csp.internal;

import dev.weft.csp.Fiber;

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

    static Object next(Object waiter) {
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

    /** Queues {@code waiter} first, ahead of everyone waiting. */
    final void addFirst(Object waiter) {
        Object l = last();
        if (l == null) {
            setNext(waiter, waiter);
            last(waiter);
        } else {
            setNext(waiter, next(l));
            setNext(l, waiter);
        }
    }

    /** Takes the first fiber out of the queue, passing over the registrations before it; null if none. */
    final Fiber pollFiber() {
        Object l = last();
        if (l == null) {
            return null;
        }
        for (Object prev = l, w = next(l); ; prev = w, w = next(w)) {
            if (w instanceof Fiber) {
                unlink(prev, w);
                return (Fiber) w;
            }
            if (w == l) {
                return null;
            }
        }
    }

    /** The first queued fiber whose {@link Fiber#transfer} is {@code transfer}, left in place; null if none. */
    final Fiber fiberHolding(Object transfer) {
        return (Fiber) find(FIBER_HOLDING, transfer);
    }

    /** Whether a fiber, or a promise ({@link Selection.Registration#promisedAt}), is queued. */
    final boolean hasFiberOrPromise() {
        return find(FIBER_OR_PROMISE, null) != null;
    }

    /** Whether a queued fiber holds a promise in its {@link Fiber#transfer} (a reader waiting for one). */
    final boolean hasFiberHoldingPromise() {
        return find(FIBER_HOLDING_PROMISE, null) != null;
    }

    /** Whether a plain (non-alternative) waiter other than {@code me} is queued. */
    final boolean hasFiberOtherThan(Fiber me) {
        return find(FIBER_OTHER_THAN, me) != null;
    }

    // What find() looks for: a switch rather than a lambda, so that a search under a channel's lock allocates nothing.
    private static final int FIBER_HOLDING = 0, FIBER_OR_PROMISE = 1, FIBER_HOLDING_PROMISE = 2, FIBER_OTHER_THAN = 3;

    /** The first waiter that is {@code what} (with {@code arg}), left in place; null if none. */
    private Object find(int what, Object arg) {
        Object l = last();
        if (l == null) {
            return null;
        }
        for (Object w = next(l); ; w = next(w)) {
            boolean fiber = w instanceof Fiber;
            boolean found;
            switch (what) {
                case FIBER_HOLDING:
                    found = fiber && ((Fiber) w).transfer == arg;
                    break;
                case FIBER_OR_PROMISE:
                    found = fiber || ((Selection.Registration) w).promisedAt != null;
                    break;
                case FIBER_HOLDING_PROMISE:
                    found = fiber && ((Fiber) w).transfer instanceof Selection.Registration;
                    break;
                default:
                    found = fiber && w != arg;
            }
            if (found) {
                return w;
            }
            if (w == l) {
                return null;
            }
        }
    }

    /**
     * Claims the first open registration (its select chose nothing yet) and takes it out of the queue, passing
     * over fibers and promises and dropping dead registrations (their selects chose something else); null if
     * there is none. The caller wakes its select.
     */
    final Selection.Registration pollOpenRegistration() {
        Object l = last();
        if (l == null) {
            return null;
        }
        for (Object w = next(l), n; ; w = n) {
            boolean end = w == l;
            n = next(w);
            if (w instanceof Selection.Registration && ((Selection.Registration) w).promisedAt == null) {
                Selection.Registration r = (Selection.Registration) w;
                boolean claimed = r.selection.claim(r.index);
                remove(r); // claimed here, or dead
                if (claimed) {
                    return r;
                }
            }
            if (end || isEmpty()) {
                return null;
            }
        }
    }

    /** Takes {@code w} out of the ring, {@code prev} being the waiter before it (itself if it is alone). */
    private void unlink(Object prev, Object w) {
        if (w == prev) {
            last(null); // it was alone
        } else {
            setNext(prev, next(w));
            if (w == last()) {
                last(prev);
            }
        }
        setNext(w, null);
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
                unlink(prev, w);
                return true;
            }
            if (w == l) {
                return false;
            }
            prev = w;
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
     * Takes every alternative's registration out of the queue except the promises ({@link
     * Selection.Registration#promisedAt}), leaving the fibers and the promises in their order; returns them
     * chained as {@link #drain()} does.
     */
    final Object drainSelections() {
        return drainWhere(false);
    }

    /**
     * Takes every fiber out of the queue that does not hold a promise in its {@link Fiber#transfer} (a reader
     * that waits for a promised writer stays), leaving the rest in their order; returns them chained as
     * {@link #drain()} does.
     */
    final Object drainFibersWithoutPromise() {
        return drainWhere(true);
    }

    /** Takes out the fibers without a promise ({@code fibers}) or the registrations that are not promises. */
    private Object drainWhere(boolean fibers) {
        Object taken = null;
        Object takenLast = null;
        for (Object w = drain(), n; w != null; w = n) {
            n = detach(w);
            boolean take = fibers
                    ? w instanceof Fiber && !(((Fiber) w).transfer instanceof Selection.Registration)
                    : w instanceof Selection.Registration && ((Selection.Registration) w).promisedAt == null;
            if (!take) {
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
