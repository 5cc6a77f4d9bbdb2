package dev.weft.csp.internal;

import dev.weft.csp.CSProcess;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.RuntimeEvents;
import dev.weft.csp.runtime.Schedulable;
import dev.weft.csp.runtime.UnjoinedFailures;
import dev.weft.csp.runtime.WorkerPool;
import static dev.weft.csp.Fiber.DONE;
import static dev.weft.csp.Fiber.RUNNABLE;

/**
 * A fiber's life from the runtime's side: it is made and queued ({@link #start}, {@link #spawn},
 * {@link #launch}), runs slices on carriers ({@link Fiber#runSlice}), and ends ({@link #end}): its joiners and
 * watcher hear of it, an unjoined failure is held for the scheduler's handler, its pool and its run count it out.
 */
public final class FiberLifecycle {
    private FiberLifecycle() {
    }

    /** Starts a new fiber for {@code p} in the given pool and run group. */
    public static Fiber start(CSProcess p, WorkerPool pool, RunGroup group) {
        return start(p, pool, group, null);
    }

    /**
     * Starts a new fiber for {@code p} where {@link Weft#spawn(CSProcess)} would: in the running fiber's pool
     * and run, or, from a plain thread, on the default scheduler. {@code watcher} (or null) hears its end.
     */
    public static Fiber spawn(CSProcess p, EndWatcher watcher) {
        Fiber parent = Fiber.runningFiber();
        if (parent != null) {
            return start(p, parent.pool(), parent.group(), watcher);
        }
        return start(p, ApiAccess.api().pool(Scheduler.defaultScheduler()), null, watcher);
    }

    /**
     * Starts a new fiber for {@code p} whose end {@code watcher} (if not null) hears first, before anyone can
     * see the fiber done: a par's branch runs the user's process itself, with no frame of the par's around it.
     */
    static Fiber start(CSProcess p, WorkerPool pool, RunGroup group, EndWatcher watcher) {
        Fiber f = ApiAccess.api().newFiber(p, group);
        f.joiners = watcher; // published with the fiber by the queue that takes it
        launch(f, pool);
        return f;
    }

    /**
     * Queues new fiber {@code f} for its first run. A fiber of a run that is being cancelled starts cancelled (it
     * ends at once). If the scheduler refuses it (closed), the run does not count it and the refusal is thrown.
     * The pool records itself in the fiber as it queues it (see {@link Fiber#pool()}).
     */
    public static void launch(Fiber f, WorkerPool pool) {
        FiberLocalValues.inherit(f);
        RunGroup group = f.group();
        if (group != null) {
            pool.started(group);
            f.cancelled = group.isCancelling();
        }
        Fiber.STATE.lazySet(f, RUNNABLE); // no fence: the queue that takes it publishes it
        RuntimeEvents.fiberSpawned(f, pool.name());
        try {
            pool.submitNew(f);
        } catch (RuntimeException | Error e) {
            f.state = DONE;
            if (group != null) {
                group.ended(f, null, f.cancelled);
            }
            throw e;
        }
        if (group != null && group.isCancelling()) {
            f.cancel(); // the run began cancelling as this fiber joined it: it may have missed the sweep
        }
    }

    /**
     * Fiber {@code f} has ended, its process having thrown {@code t} (or null), its frames cleared: its watcher
     * hears first, then it is {@link Fiber#DONE}, its joiners are woken, and its pool counts it out. A failure
     * nobody joins goes to the scheduler's handler. The caller tells the run in any case, even if this throws.
     */
    public static void end(Fiber f, Throwable t) {
        RuntimeEvents.fiberEnded(f, t);
        EndWatcher watcher = Joiners.watcher(f);
        if (watcher != null) {
            watcher.ending(f, t); // before DONE: whoever sees this fiber done sees what the watcher did
        }
        RunGroup group = f.group();
        // A failure nobody has joined yet is held until it is certain that nobody will (see UnjoinedFailures);
        // the entry is made before the lock, so that nothing under it can fail (an OutOfMemoryError).
        UnjoinedFailures.Entry entry = null;
        boolean reportable = t != null && !(group != null && group.isMain(f))
                && !(f.cancelled && t instanceof CancelledException);
        if (reportable) {
            try {
                entry = UnjoinedFailures.hold(f, t, f.pool(), group);
            } catch (Throwable noRoom) {
                // out of memory: reported at once below, if nobody waits
            }
        }
        Object waiting;
        synchronized (f) { // the joiners' monitor (see Joiners)
            waiting = f.joiners;
            f.joiners = entry != null && waiting == null ? entry : t; // before DONE: see Joiners.rethrowFailure
            f.state = DONE; // volatile: whoever reads DONE reads the failure above
        }
        boolean held = reportable && waiting == null;
        if (entry != null && !held) {
            entry.claim(); // its joiners take it
        } else if (entry == null && held) {
            f.pool().uncaught(String.valueOf(f), t);
        }
        Joiners.wake(f, waiting);
        f.blocker = null;
        Object promise = f.transfer;
        f.transfer = null;
        f.pool().ended(f);
        if (held && group != null) {
            group.unjoinedFailure(t);
        }
        if (promise instanceof Selection.Registration) { // a select's promise its process never kept
            ChannelImpl.breakPromise((Selection.Registration) promise);
        }
    }

    /** Cancels every live fiber of {@code pool} that belongs to {@code run}. */
    public static void cancelAll(WorkerPool pool, RunGroup run) {
        for (Schedulable c : pool.liveSnapshot()) {
            Fiber f = (Fiber) c;
            if (f.group() == run) {
                f.cancel();
            }
        }
    }
}
