package dev.weft.csp;

import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberPauses;
import dev.weft.csp.internal.Uses;
import dev.weft.csp.internal.Waitable;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.WorkerPool;
import java.util.ArrayList;
import java.util.List;

/**
 * A barrier: every enrolled process that calls {@link #sync()} waits until all enrolled processes have
 * called it; then all go on together and the barrier is ready for the next round.
 */
public final class Barrier {
    /** Who has used the barrier, under its monitor; see {@link Uses}. */
    private Object users = Uses.creator();
    /** Whether a plain thread made it; see {@link Uses}. */
    private final boolean madeOutside = users == Uses.UNUSED;
    private int enrolled;
    private int arrived;
    private List<Fiber> waiting = new ArrayList<>();
    /**
     * The current round: a waiter goes on once it changes. A token rather than a count, so that a fiber waiting
     * here saves a reference, not a primitive, which would cost it an array of its own.
     */
    private volatile Object round = new Object();

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
        WorkerPool p = Uses.callerPool();
        synchronized (this) {
            use(p);
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
        WorkerPool p = Uses.callerPool();
        StackReserve.forOperation(); // the round's wake-ups below must not overflow the stack halfway
        synchronized (this) {
            use(p);
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
     * @throws CancelledException if the fiber is cancelled (or the thread interrupted) before the round
     *     completes; its arrival is withdrawn (it stays enrolled), so the round waits for it again
     */
    @Pausable
    public void sync() {
        Fiber me = Fiber.current();
        List<Fiber> release = null;
        Object myRound;
        StackReserve.forOperation(); // the round's wake-ups below must not overflow the stack halfway
        synchronized (this) {
            use(FiberAccess.pool(me));
            if (enrolled == 0) {
                throw new IllegalStateException("sync() on a barrier with no enrolled process");
            }
            if (FiberAccess.cancelPending(me)) {
                throw FiberAccess.cancelledError(me);
            }
            myRound = round;
            if (arrived + 1 == enrolled) {
                release = nextRound();
            } else {
                arrived++;
                waiting.add(me);
            }
        }
        if (release != null) {
            wakeAll(release);
            return;
        }
        while (round == myRound) {
            FiberPauses.waitOn(this);
            if (round == myRound && FiberAccess.cancelPending(me) && withdraw(me)) {
                throw FiberAccess.cancelledError(me);
            }
        }
    }

    /** Withdraws {@code f}'s arrival in the current round; false if the round has completed (it goes on). */
    synchronized boolean withdraw(Fiber f) {
        if (!waiting.remove(f)) {
            return false;
        }
        arrived--;
        return true;
    }

    /** Records a use by a party of pool {@code p} (null: a plain thread). Under the monitor. */
    private void use(WorkerPool p) {
        if (p != users && users != null) {
            users = Uses.after(users, p);
        }
    }

    /** As {@link Waitable#onlyUsedBy} (not public API, so not that interface). */
    synchronized boolean onlyUsedBy(WorkerPool pool, boolean creatorCounts) {
        return Uses.onlyBy(users, madeOutside, pool, creatorCounts);
    }

    @Override
    public String toString() {
        synchronized (this) {
            return "a barrier (" + arrived + " of " + enrolled + " enrolled processes arrived)";
        }
    }

    private List<Fiber> nextRound() {
        List<Fiber> release = waiting;
        waiting = new ArrayList<>(release.size());
        arrived = 0;
        round = new Object();
        return release;
    }

    private static void wakeAll(List<Fiber> fibers) {
        if (fibers != null) {
            for (Fiber f : fibers) {
                FiberAccess.unparkReserved(f);
            }
        }
    }
}
