package dev.weft.csp.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A wake-up scheduled with {@link WorkerPool#wakeAt}: runs its action once the pool's clock
 * ({@link WorkerPool#nanoTime()}) reaches its deadline, unless cancelled first. Firing and cancelling race through one compare-and-set, so
 * exactly one of them wins; a cancelled entry leaves its heap at once (a select that ends early, a sleep
 * that is cancelled, retain nothing until the deadline).
 */
public final class TimerEntry {
    private static final int PENDING = 0, FIRED = 1, CANCELLED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TimerEntry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long deadline;
    final long seq;
    private final Runnable action;
    private final TimerHeap heap;
    private volatile int state;
    /** The entry's place in its heap (under the heap's lock), -1 once it has left. */
    int index = -1;
    /** Chains the entries that fall due together. */
    TimerEntry nextDue;

    TimerEntry(long deadline, long seq, Runnable action, TimerHeap heap) {
        this.deadline = deadline;
        this.seq = seq;
        this.action = action;
        this.heap = heap;
    }

    /** The deadline, on the scale of its pool's clock ({@link WorkerPool#nanoTime()}). */
    public long deadline() {
        return deadline;
    }

    /**
     * Prevents the action from running and removes the entry from its heap: true if it had not run (nor
     * started to), false if it had or the entry was cancelled before.
     */
    public boolean cancel() {
        if (!STATE.compareAndSet(this, PENDING, CANCELLED)) { // races fire()'s CAS: exactly one wins
            return false;
        }
        heap.remove(this);
        return true;
    }

    void fire() {
        if (STATE.compareAndSet(this, PENDING, FIRED)) { // races cancel()'s CAS: exactly one wins
            action.run();
        }
    }

    boolean before(TimerEntry o) {
        long d = deadline - o.deadline;
        return d < 0 || (d == 0 && seq < o.seq);
    }

    @Override
    public String toString() {
        long ms = (deadline - heap.now()) / 1_000_000;
        return "timer due " + (ms >= 0 ? "in " + ms + " ms" : ms + " ms ago");
    }
}
