package dev.weft.csp;

import dev.weft.csp.runtime.TimerEntry;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Sleeping. A sleeping fiber costs no thread and never blocks its carrier: its wake-up is an entry in its
 * worker's timer heap, fired by that worker or, if it is busy, by an idle one.
 */
public final class Timer {
    private Timer() {
    }

    /** Pauses for at least {@code d}; a zero or negative duration returns at once. */
    @Pausable
    public static void sleep(Duration d) {
        if (d == null) {
            throw new NullPointerException("duration is null");
        }
        sleepUntil(System.nanoTime() + d.toNanos());
    }

    /** Pauses until {@link System#nanoTime()} reaches {@code deadline}. */
    @Pausable
    public static void sleepUntil(long deadline) {
        Fiber me = Fiber.current();
        if (me.isThreadBound()) {
            long wait;
            while ((wait = deadline - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            return;
        }
        if (deadline - System.nanoTime() <= 0) {
            return;
        }
        TimerEntry wake = me.pool().wakeAt(deadline, me.waker());
        do {
            Fiber.parkOn(wake); // the carrier runs other fibers meanwhile; the timer wakes this one
        } while (deadline - System.nanoTime() > 0);
    }
}
