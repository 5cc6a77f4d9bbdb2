package dev.weft.csp.internal;

import dev.weft.csp.CancelledException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.runtime.TimerEntry;
import dev.weft.csp.runtime.UnjoinedFailures;
import java.util.ArrayList;
import java.util.List;
import static dev.weft.csp.Fiber.DONE;

/**
 * Who waits for a fiber to end, kept in its {@link Fiber#joiners} field under the fiber's monitor: joining
 * fibers and threads, and a {@link Parallel}'s {@link EndWatcher}. The ending fiber takes the list and leaves
 * its failure in the field, then sets {@link Fiber#DONE} ({@link FiberLifecycle#end}); whoever sees it done
 * sees the failure. A joiner that gives up (cancelled, interrupted, timed out) takes itself off the list; one
 * that finds itself already taken off awaits the wake-up the ending fiber owes it.
 */
public final class Joiners {
    /** {@link Fiber#joiners} of a fiber that was joined, with nobody waiting now. */
    static final Object JOINED = new Object();

    private Joiners() {
    }

    /**
     * Waits for {@code target} to end without rethrowing what it threw. If {@code cancellable}, a cancellation
     * of the waiter ends the wait with {@link CancelledException}; otherwise the wait goes on regardless (for
     * cleanup that must see its fibers end, as {@link Parallel} does).
     */
    @Pausable
    public static void awaitEnd(Fiber target, boolean cancellable) {
        Fiber me = Fiber.current();
        if (cancellable && me.cancelPending()) {
            throw me.cancelledError();
        }
        // Done: no monitor (its end, maybe on another carrier, wrote the failure before DONE, a volatile store).
        if (target.state == DONE || !add(target, me)) {
            return;
        }
        if (!cancellable && me.isThreadBound()) {
            while (target.state != DONE) {
                ThreadMode.awaitPermit(me);
            }
            return;
        }
        while (target.state != DONE) {
            FiberPauses.waitOn(target);
            if (target.state != DONE && me.cancelPending() && remove(target, me)) {
                throw me.cancelledError();
            }
        }
    }

    /** Waits for {@code target} to end until {@code deadline}: true if it ended. Cancellable. */
    @Pausable
    public static boolean awaitEndUntil(Fiber target, long deadline) {
        Fiber me = Fiber.current();
        if (me.cancelPending()) {
            throw me.cancelledError();
        }
        if (deadline == Deadlines.NEVER) {
            awaitEnd(target, true);
            return true;
        }
        if (Deadlines.passed(deadline, me.nanoTime())) { // also keeps the timer heap free of "now"
            return target.state == DONE;
        }
        if (!add(target, me)) {
            return true;
        }
        if (me.isThreadBound()) {
            return awaitEndOnThread(me, target, deadline);
        }
        TimerEntry alarm = me.pool().wakeAt(deadline, me::unpark);
        try {
            while (target.state != DONE) {
                FiberPauses.waitOn(target);
                if (target.state == DONE) {
                    break;
                }
                if (me.cancelPending() && remove(target, me)) {
                    throw me.cancelledError();
                }
                if (Deadlines.passed(deadline, me.nanoTime()) && remove(target, me)) {
                    return false;
                }
            }
        } finally {
            alarm.cancel();
        }
        return true;
    }

    /**
     * {@link #awaitEndUntil} on a plain thread's own fiber {@code me}, where each wake-up is a permit taken exactly
     * once: the ending fiber gives one to each joiner still listed; a joiner that took itself off the list gets none.
     */
    private static boolean awaitEndOnThread(Fiber me, Fiber target, long deadline) {
        for (;;) {
            if (ThreadMode.blockUntil(me, deadline)) {
                if (target.state == DONE) {
                    return true;
                }
                continue; // a stray unpark()
            }
            boolean interrupted = me.thread().isInterrupted();
            if (remove(target, me)) {
                if (interrupted) {
                    throw me.cancelledError();
                }
                return false;
            }
            ThreadMode.awaitPermit(me); // it ended just now: take its wake-up
            return true;
        }
    }

    /** Adds {@code waiter} to {@code target}'s joiners; false if {@code target} has ended (nothing to wait for). */
    private static boolean add(Fiber target, Fiber waiter) {
        synchronized (target) {
            if (target.state == DONE) {
                return false;
            }
            Object j = target.joiners;
            if (j == null || j == JOINED) {
                target.joiners = waiter;
            } else if (j instanceof List) {
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) j;
                list.add(waiter);
            } else {
                List<Object> list = new ArrayList<>(2);
                list.add(j);
                list.add(waiter);
                target.joiners = list;
            }
            return true;
        }
    }

    /** Removes {@code waiter} from {@code target}'s joiners; false if it has ended (it woke or is waking them). */
    static boolean remove(Fiber target, Fiber waiter) {
        synchronized (target) {
            Object j = target.joiners;
            if (j == waiter) {
                target.joiners = JOINED;
                return true;
            }
            return target.state != DONE && j instanceof List && ((List<?>) j).remove(waiter); // once done: what it threw
        }
    }

    /** The watcher {@code f} was started with, if any (it stays among the joiners until the end). */
    static EndWatcher watcher(Fiber f) {
        // Read without the lock: the ending fiber's own field, where a watcher is set before the fiber starts and
        // only ever moves into a list; a fiber with no watcher (spawn and join) takes no monitor here.
        Object j = f.joiners;
        if (j instanceof EndWatcher) {
            return (EndWatcher) j;
        }
        if (!(j instanceof List)) {
            return null;
        }
        synchronized (f) {
            j = f.joiners;
            if (j instanceof List) {
                for (Object o : (List<?>) j) {
                    if (o instanceof EndWatcher) {
                        return (EndWatcher) o;
                    }
                }
            }
            return null;
        }
    }

    /** Rethrows what ended fiber {@code f} threw, if it threw (see {@link Fiber#joiners}). */
    public static void rethrowFailure(Fiber f) {
        Object j = f.joiners;
        Throwable t;
        if (j instanceof UnjoinedFailures.Entry) {
            UnjoinedFailures.Entry held = (UnjoinedFailures.Entry) j;
            held.claim(); // joined after all: the failure is this joiner's, never the handler's
            t = held.failure();
        } else {
            t = j instanceof Throwable ? (Throwable) j : null;
        }
        if (t != null) {
            throw Rethrow.unchecked(t);
        }
    }

    /** Tells {@code waiting}, the joiners ended fiber {@code f} took from its field (or null), that it is done. */
    static void wake(Fiber f, Object waiting) {
        if (waiting instanceof List) {
            for (Object w : (List<?>) waiting) {
                wakeOne(f, w);
            }
        } else {
            wakeOne(f, waiting);
        }
    }

    private static void wakeOne(Fiber f, Object joiner) {
        if (joiner instanceof Fiber) {
            ((Fiber) joiner).unpark();
        } else if (joiner instanceof EndWatcher) {
            ((EndWatcher) joiner).ended(f);
        }
    }
}
