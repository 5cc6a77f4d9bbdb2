package dev.weft.csp;

import java.util.ArrayList;
import java.util.List;

/**
 * A barrier: every enrolled process that calls {@link #sync()} waits until all enrolled processes have
 * called it; then all go on together and the barrier is ready for the next round.
 */
public final class Barrier {
    private int enrolled;
    private int arrived;
    private List<Fiber> waiting = new ArrayList<>();

    /**
     * A barrier with {@code enrolled} processes enrolled.
     *
     * @throws IllegalArgumentException if {@code enrolled} is negative
     */
    public Barrier(int enrolled) {
        if (enrolled < 0) {
            throw new IllegalArgumentException("a barrier cannot have " + enrolled + " enrolled processes");
        }
        this.enrolled = enrolled;
    }

    /** Enrolls one more process: each round now waits for it too. */
    public void enroll() {
        synchronized (this) {
            enrolled++;
        }
    }

    /**
     * Resigns one enrolled process: rounds no longer wait for it. If every other process of the current
     * round has already arrived, they go on.
     *
     * @throws IllegalStateException if no process is enrolled
     */
    public void resign() {
        List<Fiber> release = null;
        synchronized (this) {
            if (enrolled == 0) {
                throw new IllegalStateException("resign() on a barrier with no enrolled process");
            }
            enrolled--;
            if (arrived > 0 && arrived == enrolled) {
                release = nextRound();
            }
        }
        wakeAll(release);
    }

    /**
     * Waits until every enrolled process has called {@code sync()} in this round.
     *
     * @throws IllegalStateException if no process is enrolled
     */
    @Pausable
    public void sync() {
        Fiber me = Fiber.current();
        List<Fiber> release = null;
        synchronized (this) {
            if (enrolled == 0) {
                throw new IllegalStateException("sync() on a barrier with no enrolled process");
            }
            if (arrived + 1 == enrolled) {
                release = nextRound();
            } else {
                arrived++;
                waiting.add(me);
            }
        }
        if (release == null) {
            Fiber.parkOn(this);
        } else {
            wakeAll(release);
        }
    }

    private List<Fiber> nextRound() {
        List<Fiber> release = waiting;
        waiting = new ArrayList<>(release.size());
        arrived = 0;
        return release;
    }

    private static void wakeAll(List<Fiber> fibers) {
        if (fibers != null) {
            for (Fiber f : fibers) {
                f.unpark();
            }
        }
    }
}
