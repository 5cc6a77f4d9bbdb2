package dev.weft.csp;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** Sleeping. A sleeping fiber costs no thread: its wake-up is a timer entry of its carrier. */
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
        me.pool().wakeAt(deadline, me::unpark);
        Fiber.park();
    }
}
