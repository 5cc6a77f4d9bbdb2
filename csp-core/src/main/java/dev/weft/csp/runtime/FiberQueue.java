package dev.weft.csp.runtime;

/**
 * A FIFO of continuations linked through their own {@link Schedulable#next} field: adding, taking and
 * moving a whole queue allocate nothing. Owned by one thread at a time (never shared while in use).
 */
class FiberQueue {
    private Schedulable head;
    private Schedulable tail;
    private int size;

    final boolean isEmpty() {
        return head == null;
    }

    final int size() {
        return size;
    }

    final void add(Schedulable c) {
        c.next = null;
        if (tail == null) {
            head = c;
        } else {
            tail.next = c;
        }
        tail = c;
        size++;
    }

    final Schedulable poll() {
        Schedulable c = head;
        if (c != null) {
            head = (Schedulable) c.next;
            if (head == null) {
                tail = null;
            }
            c.next = null;
            size--;
        }
        return c;
    }

    /** Removes and returns the element at {@code index} (0 is the oldest); the queue must hold more than it. */
    final Schedulable take(int index) {
        if (index == 0) {
            return poll();
        }
        Schedulable before = head;
        for (int i = 1; i < index; i++) {
            before = (Schedulable) before.next;
        }
        Schedulable c = (Schedulable) before.next;
        before.next = c.next;
        if (c == tail) {
            tail = before;
        }
        c.next = null;
        size--;
        return c;
    }

    /** Appends every element of {@code other}, in order, and leaves it empty. */
    final void takeAll(FiberQueue other) {
        if (other.head == null) {
            return;
        }
        if (tail == null) {
            head = other.head;
        } else {
            tail.next = other.head;
        }
        tail = other.tail;
        size += other.size;
        other.head = null;
        other.tail = null;
        other.size = 0;
    }

    /** Moves the second half of this queue (its newest elements) to the end of {@code other}. */
    final void moveSecondHalfTo(FiberQueue other) {
        int keep = (size + 1) / 2;
        if (keep == size) {
            return;
        }
        Schedulable last = head;
        for (int i = 1; i < keep; i++) {
            last = (Schedulable) last.next;
        }
        Schedulable first = (Schedulable) last.next;
        last.next = null;
        if (other.tail == null) {
            other.head = first;
        } else {
            other.tail.next = first;
        }
        other.tail = tail;
        other.size += size - keep;
        tail = last;
        size = keep;
    }

    /** Moves the older half of this queue (at least one element if any) to the end of {@code other}. */
    final void moveFirstHalfTo(FiberQueue other) {
        int move = (size + 1) / 2;
        if (move == 0) {
            return;
        }
        Schedulable last = head;
        for (int i = 1; i < move; i++) {
            last = (Schedulable) last.next;
        }
        Schedulable rest = (Schedulable) last.next;
        last.next = null;
        if (other.tail == null) {
            other.head = head;
        } else {
            other.tail.next = head;
        }
        other.tail = last;
        other.size += move;
        head = rest;
        if (rest == null) {
            tail = null;
        }
        size -= move;
    }

    /** Visits every element, oldest first (diagnostics: only the owner may call it). */
    final Schedulable first() {
        return head;
    }
}
