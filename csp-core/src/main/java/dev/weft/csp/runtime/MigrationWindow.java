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
    // Ordering: the owner writes a slot (release), then the tail (volatile); a taker reads the head, then the tail,
    // then the slot (acquire), so a slot seen below the tail holds the batch as offered. The head only grows, so a
    // slot the owner reuses (16 offers later) belongs to a head that a stale taker's CAS can no longer match.
    private volatile int head;
    /** Written by the owner alone. */
    private volatile int tail;

    /** Owner only: adds {@code b} at the tail; false if the ring is full. */
    boolean offer(Batch b) {
        int t = tail; // the owner's own last write
        if (t - head >= CAPACITY) { // a stale head only makes the ring look fuller: the batch waits in the overflow
            return false;
        }
        SLOTS.setRelease(slots, t & MASK, b); // release: the batch's fibers are written before the slot
        tail = t + 1; // volatile: publishes the slot to takers, who read the tail before it
        return true;
    }

    /** Owner or thief: takes the oldest batch, or null if there is none. */
    Batch poll() {
        for (;;) {
            int h = head; // volatile, read before the tail: tail >= h, so h != tail means slot h was offered
            if (h == tail) {
                return null;
            }
            Batch b = (Batch) SLOTS.getAcquire(slots, h & MASK); // pairs with offer's release store
            if (HEAD.compareAndSet(this, h, h + 1)) { // one taker per slot; a stale h fails (the head only grows)
                return b;
            }
        }
    }

    boolean isEmpty() {
        return head == tail; // a hint for the owner and for thieves; poll() decides
    }

    /** Whether the owner can add without overflowing. */
    boolean hasRoom() {
        return tail - head < CAPACITY; // owner only: a stale head is on the safe side (see offer)
    }
}
