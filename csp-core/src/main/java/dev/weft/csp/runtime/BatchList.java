package dev.weft.csp.runtime;

/** A private FIFO of batches (a worker's run queue beyond its migration window). */
final class BatchList {
    private Batch head;
    private Batch tail;

    boolean isEmpty() {
        return head == null;
    }

    /** The newest batch, or null. */
    Batch last() {
        return tail;
    }

    void add(Batch b) {
        b.link = null;
        if (tail == null) {
            head = b;
        } else {
            tail.link = b;
        }
        tail = b;
    }

    Batch poll() {
        Batch b = head;
        if (b != null) {
            head = b.link;
            if (head == null) {
                tail = null;
            }
            b.link = null;
        }
        return b;
    }
}
