package dev.weft.csp.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Fibers handed to a worker by other threads (a plain thread's wake-up, a new fiber from outside): a
 * lock-free stack through the fibers' own link field, so pushing allocates nothing. The owner, or an idle
 * worker, takes everything at once and queues it oldest first. A worker keeps a second one for the fibers
 * of other homes that ended there ({@link Worker#endedHere}), which any thread may take ({@link #takeAll}).
 */
final class Inbox {
    private static final VarHandle TOP;

    static {
        try {
            TOP = MethodHandles.lookup().findVarHandle(Inbox.class, "top", Schedulable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Ordering: the pushers' compare-and-set and the taker's get-and-set are each a full fence on the one word
    // `top`, so a fiber's link and whatever its pusher wrote before pushing are visible to the thread that takes it.
    private volatile Schedulable top;

    void push(Schedulable c) {
        for (;;) {
            Schedulable t = top; // volatile read: a guess, checked by the CAS
            c.next = t; // plain: the CAS below publishes it with the fiber
            if (TOP.compareAndSet(this, t, c)) { // full fence: the release the taker's get-and-set pairs with
                return;
            }
        }
    }

    boolean isEmpty() {
        return top == null; // a hint: a pusher wakes the owner after its push (Worker.pushExternal)
    }

    /** Takes everything pushed so far: the newest, the others following through {@code next}; or null. */
    Schedulable takeAll() {
        // get-and-set: acquires every push before it (their links included); the plain read first spares the
        // empty case a write to a shared line.
        return top == null ? null : (Schedulable) TOP.getAndSet(this, null);
    }

    /** Moves everything pushed so far to the end of {@code q}, oldest first; false if there was nothing. */
    boolean drainTo(FiberQueue q) {
        Schedulable c = takeAll();
        if (c == null) {
            return false;
        }
        Schedulable reversed = null;
        while (c != null) {
            Schedulable n = (Schedulable) c.next;
            c.next = reversed;
            reversed = c;
            c = n;
        }
        while (reversed != null) {
            Schedulable n = (Schedulable) reversed.next;
            q.add(reversed);
            reversed = n;
        }
        return true;
    }
}
