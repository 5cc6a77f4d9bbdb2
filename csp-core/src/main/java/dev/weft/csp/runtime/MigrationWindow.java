package dev.weft.csp.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The stealable end of a worker's run queue: a bounded ring of batches. Only the owner adds (at the tail);
 * the owner and idle workers take from the head, each batch by one compare-and-set, so no lock is ever
 * taken and a thief never waits for the owner. Batches beyond the ring's capacity wait in the owner's
 * private overflow list and enter the ring as it drains, so every queued batch becomes stealable in turn.
 */
final class MigrationWindow {
    static final int CAPACITY = 16;
    private static final int MASK = CAPACITY - 1;
    private static final VarHandle HEAD;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Batch[].class);

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(MigrationWindow.class, "head", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Batch[] slots = new Batch[CAPACITY];
    private volatile int head;
    private volatile int tail;

    /** Owner only: adds {@code b} at the tail; false if the ring is full. */
    boolean offer(Batch b) {
        int t = tail;
        if (t - head >= CAPACITY) {
            return false;
        }
        SLOTS.setRelease(slots, t & MASK, b);
        tail = t + 1;
        return true;
    }

    /** Owner or thief: takes the oldest batch, or null if there is none. */
    Batch poll() {
        for (;;) {
            int h = head;
            if (h == tail) {
                return null;
            }
            Batch b = (Batch) SLOTS.getAcquire(slots, h & MASK);
            if (HEAD.compareAndSet(this, h, h + 1)) {
                return b;
            }
        }
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** Whether the owner can add without overflowing. */
    boolean hasRoom() {
        return tail - head < CAPACITY;
    }
}
