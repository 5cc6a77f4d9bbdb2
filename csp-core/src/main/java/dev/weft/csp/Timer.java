package dev.weft.csp;

import dev.weft.csp.internal.Deadlines;
import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberPauses;
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
        sleepUntil(Deadlines.after(FiberAccess.nanoTime(Fiber.current()), d));
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
        if (FiberAccess.cancelPending(me)) {
            throw FiberAccess.cancelledError(me);
        }
        if (FiberAccess.isThreadBound(me)) {
            sleepOnThread(me, deadline);
            return;
        }
        if (Deadlines.passed(deadline, FiberAccess.nanoTime(me))) {
            return;
        }
        if (deadline == Deadlines.NEVER) {
            for (;;) {
                FiberPauses.waitOn(FOREVER);
                if (FiberAccess.cancelPending(me)) {
                    throw FiberAccess.cancelledError(me);
                }
            }
        }
        // made per sleep: a field would cost every fiber
        TimerEntry wake = FiberAccess.pool(me).wakeAt(deadline, me::unpark);
        do {
            FiberPauses.waitOn(wake); // the carrier runs other fibers meanwhile; the timer wakes this one
            if (FiberAccess.cancelPending(me) && wake.cancel()) {
                throw FiberAccess.cancelledError(me);
            }
        } while (!Deadlines.passed(deadline, FiberAccess.nanoTime(me)));
    }

    /**
     * The time on the scale of {@link #sleepUntil}, {@link Guards#deadline} and {@link Select#deadline}: the
     * clock of the calling fiber's scheduler, which is virtual on a simulated one (see
     * {@link dev.weft.csp.spi.Extensions#simulated}), and {@link System#nanoTime()} anywhere else.
     */
    public static long now() {
        Fiber f = FiberAccess.runningFiber();
        return f == null ? System.nanoTime() : FiberAccess.pool(f).nanoTime();
    }

    private static void sleepOnThread(Fiber me, long deadline) {
        long wait;
        while ((wait = Deadlines.remaining(deadline, System.nanoTime())) > 0) {
            if (FiberAccess.cancelPending(me)) {
                throw FiberAccess.cancelledError(me);
            }
            if (wait == Long.MAX_VALUE) {
                LockSupport.park(me);
            } else {
                LockSupport.parkNanos(me, wait);
            }
        }
    }
}
