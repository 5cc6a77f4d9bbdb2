package dev.weft.csp.runtime;

import java.util.Arrays;

/**
 * A worker's timers: a binary heap ordered by deadline (then by arrival), under a tiny lock ({@link RuntimeLock})
 * that is held only for a heap operation. Its owner adds and fires; another thread may add (a wake-up scheduled
 * from outside) or remove (a cancelled entry), and an idle worker may fire entries that are due while the
 * owner is busy. Each entry knows its place, so removing one costs O(log n).
 */
final class TimerHeap {
    /** Whose clock the deadlines are on (for dumps: the carriers pass the time in). */
    private final WorkerPool pool;
    private final RuntimeLock lock = new RuntimeLock();
    private TimerEntry[] heap = new TimerEntry[8];
    private int size;
    private long seq;
    /**
     * The earliest entry, or null: written under the lock, read without it to decide whether to look. Volatile,
     * so that a read sees the entry fully made; a stale read costs a look, or a wait that ends when whoever added
     * the entry wakes the owner ({@link WorkerPool#wakeAt}).
     */
    private volatile TimerEntry first;

    TimerHeap(WorkerPool pool) {
        this.pool = pool;
    }

    /** The time on the deadlines' scale: the pool's clock. */
    long now() {
        return pool.nanoTime();
    }

    TimerEntry first() {
        return first;
    }

    boolean isEmpty() {
        return first == null;
    }

    /** Whether an entry is due at {@code now}. */
    boolean hasDue(long now) {
        TimerEntry f = first;
        return f != null && f.deadline - now <= 0;
    }

    /** The number of entries (for tests and dumps). */
    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    TimerEntry add(long deadline, Runnable action) {
        lock.lock();
        try {
            TimerEntry e = new TimerEntry(deadline, seq++, action, this);
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            siftUp(size++, e);
            first = heap[0];
            return e;
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code e} if it is still in the heap. */
    void remove(TimerEntry e) {
        lock.lock();
        try {
            int i = e.index;
            if (i < 0) {
                return;
            }
            e.index = -1;
            TimerEntry last = heap[--size];
            heap[size] = null;
            if (i < size) {
                siftDown(i, last);
                if (heap[i] == last) {
                    siftUp(i, last);
                }
            }
            first = size == 0 ? null : heap[0];
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the entries due at {@code now} and returns them chained through {@link TimerEntry#nextDue},
     * earliest first; null if none (or, with {@code tryOnly}, if another thread holds the lock).
     */
    TimerEntry takeDue(long now, boolean tryOnly) {
        if (!hasDue(now)) {
            return null;
        }
        if (tryOnly) {
            if (!lock.tryLock()) {
                return null;
            }
        } else {
            lock.lock();
        }
        TimerEntry chain = null;
        TimerEntry last = null;
        try {
            while (size > 0 && heap[0].deadline - now <= 0) {
                TimerEntry e = removeFirst();
                e.nextDue = null;
                if (last == null) {
                    chain = e;
                } else {
                    last.nextDue = e;
                }
                last = e;
            }
            first = size == 0 ? null : heap[0];
        } finally {
            lock.unlock();
        }
        return chain;
    }

    private TimerEntry removeFirst() {
        TimerEntry top = heap[0];
        top.index = -1;
        TimerEntry e = heap[--size];
        heap[size] = null;
        if (size > 0) {
            siftDown(0, e);
        }
        return top;
    }

    /** Places {@code e} at or above slot {@code i}. */
    private void siftUp(int i, TimerEntry e) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!e.before(heap[parent])) {
                break;
            }
            place(i, heap[parent]);
            i = parent;
        }
        place(i, e);
    }

    /** Places {@code e} at or below slot {@code i}. */
    private void siftDown(int i, TimerEntry e) {
        for (;;) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].before(heap[child])) {
                child++;
            }
            if (!heap[child].before(e)) {
                break;
            }
            place(i, heap[child]);
            i = child;
        }
        place(i, e);
    }

    private void place(int i, TimerEntry e) {
        heap[i] = e;
        e.index = i;
    }


    /** Fires a chain returned by {@link #takeDue}. */
    static void fire(TimerEntry chain) {
        while (chain != null) {
            TimerEntry n = chain.nextDue;
            chain.nextDue = null;
            chain.fire();
            chain = n;
        }
    }
}
