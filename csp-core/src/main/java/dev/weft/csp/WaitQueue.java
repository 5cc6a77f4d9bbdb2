package dev.weft.csp;

import java.util.ArrayDeque;

/**
 * The parties waiting on one side of a channel, in arrival order: fibers blocked in a read or write, and
 * alternatives registered on a guard. The first waiter is held in a field, so that the usual case of one
 * waiter allocates nothing. Used under the channel's lock only. Each end of a channel is the queue of the
 * parties waiting at it (one object less per channel).
 */
class WaitQueue {
    private Object first;
    private ArrayDeque<Object> rest;

    final boolean isEmpty() {
        return first == null;
    }

    final Object peek() {
        return first;
    }

    final void add(Object waiter) {
        if (first == null) {
            first = waiter;
        } else {
            if (rest == null) {
                rest = new ArrayDeque<>(4);
            }
            rest.addLast(waiter);
        }
    }

    final Object poll() {
        Object f = first;
        first = rest == null ? null : rest.pollFirst();
        return f;
    }

    /** Removes {@code waiter}; false if it was not queued. */
    final boolean remove(Object waiter) {
        if (first == waiter) {
            poll();
            return true;
        }
        return rest != null && rest.remove(waiter);
    }

    /** Whether a plain (non-alternative) waiter other than {@code me} is queued. */
    final boolean hasFiberOtherThan(Fiber me) {
        if (first instanceof Fiber && first != me) {
            return true;
        }
        if (rest != null) {
            for (Object o : rest) {
                if (o instanceof Fiber && o != me) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Removes and returns every waiter. */
    final Object[] drain() {
        int n = first == null ? 0 : 1 + (rest == null ? 0 : rest.size());
        Object[] all = new Object[n];
        for (int i = 0; i < n; i++) {
            all[i] = poll();
        }
        return all;
    }
}
