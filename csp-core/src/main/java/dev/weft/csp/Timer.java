package dev.weft.csp;

import dev.weft.csp.runtime.TimerEntry;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Sleeping. A sleeping fiber costs no thread and never blocks its carrier: its wake-up is an entry in its
 * worker's timer heap, fired by that worker or, if it is busy, by an idle one. Durations and deadlines
 * saturate: zero or negative ones return at once, huge ones ({@code Duration.ofSeconds(Long.MAX_VALUE)},
 * {@code Long.MAX_VALUE} as a deadline) sleep until the fiber is cancelled.
 */
public final class Timer {
    /** What a fiber sleeping for ever waits on (no timer: only a cancellation ends it). */
    private static final Object FOREVER = new Object() {
        @Override
        public String toString() {
            return "a sleep without end";
        }
    };

    private Timer() {
    }

    /**
     * Pauses for at least {@code d}; a zero or negative duration returns at once.
     *
     * @throws CancelledException if the fiber is cancelled (or the thread interrupted) before or while it sleeps
     */
    @Pausable
    public static void sleep(Duration d) {
        if (d == null) {
            throw new NullPointerException("duration is null");
        }
        sleepUntil(Deadlines.after(Fiber.current().nanoTime(), d));
    }

    /**
     * Pauses until {@link System#nanoTime()} reaches {@code deadline} (compared as a difference, as nanoTime
     * values must be); {@code Long.MIN_VALUE} means now, {@code Long.MAX_VALUE} never.
     *
     * @throws CancelledException if the fiber is cancelled (or the thread interrupted) before or while it sleeps
     */
    @Pausable
    public static void sleepUntil(long deadline) {
        Fiber me = Fiber.current();
        if (me.cancelPending()) {
            throw me.cancelledError();
        }
        if (me.isThreadBound()) {
            sleepOnThread(me, deadline);
            return;
        }
        if (Deadlines.passed(deadline, me.nanoTime())) {
            return;
        }
        if (deadline == Deadlines.NEVER) {
            for (;;) {
                FiberPauses.waitOn(FOREVER);
                if (me.cancelPending()) {
                    throw me.cancelledError();
                }
            }
        }
        TimerEntry wake = me.pool().wakeAt(deadline, me::unpark); // made per sleep: a field would cost every fiber
        do {
            FiberPauses.waitOn(wake); // the carrier runs other fibers meanwhile; the timer wakes this one
            if (me.cancelPending() && wake.cancel()) {
                throw me.cancelledError();
            }
        } while (!Deadlines.passed(deadline, me.nanoTime()));
    }

    /**
     * The time on the scale of {@link #sleepUntil}, {@link Guards#deadline} and {@link Select#deadline}: the
     * clock of the calling fiber's scheduler, which is virtual on a simulated one (see
     * {@link dev.weft.csp.spi.Extensions#simulated}), and {@link System#nanoTime()} anywhere else.
     */
    public static long now() {
        Fiber f = Fiber.runningFiber();
        return f == null ? System.nanoTime() : f.pool().nanoTime();
    }

    private static void sleepOnThread(Fiber me, long deadline) {
        long wait;
        while ((wait = Deadlines.remaining(deadline, System.nanoTime())) > 0) {
            if (me.cancelPending()) {
                throw me.cancelledError();
            }
            if (wait == Long.MAX_VALUE) {
                LockSupport.park(me);
            } else {
                LockSupport.parkNanos(me, wait);
            }
        }
    }
}
