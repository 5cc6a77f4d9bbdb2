package dev.weft.csp.runtime;

/**
 * A wake-up scheduled with {@link WorkerPool#wakeAt}: runs its action once {@link System#nanoTime()}
 * reaches its deadline, unless cancelled first. Cancelling is lazy (the entry stays in its heap until due)
 * and never blocks.
 */
public final class TimerEntry {
    final long deadline;
    final long seq;
    private final Runnable action;
    private volatile boolean cancelled;
    /** Chains the entries that fall due together. */
    TimerEntry nextDue;

    TimerEntry(long deadline, long seq, Runnable action) {
        this.deadline = deadline;
        this.seq = seq;
        this.action = action;
    }

    /** The deadline, on the {@link System#nanoTime()} scale. */
    public long deadline() {
        return deadline;
    }

    /** Prevents the action from running if it has not run yet. */
    public void cancel() {
        cancelled = true;
    }

    void fire() {
        if (!cancelled) {
            action.run();
        }
    }

    boolean before(TimerEntry o) {
        long d = deadline - o.deadline;
        return d < 0 || (d == 0 && seq < o.seq);
    }

    @Override
    public String toString() {
        long ms = (deadline - System.nanoTime()) / 1_000_000;
        return "timer due " + (ms >= 0 ? "in " + ms + " ms" : ms + " ms ago");
    }
}
