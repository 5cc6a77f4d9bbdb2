package dev.weft.csp;

import dev.weft.csp.internal.EndWatcher;
import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberLifecycle;
import dev.weft.csp.internal.FiberPauses;
import dev.weft.csp.internal.Rethrow;
import dev.weft.csp.internal.ThreadMode;
import dev.weft.csp.internal.Waitable;
import dev.weft.csp.internal.WrappedProcess;
import dev.weft.csp.runtime.WorkerPool;
import java.util.ArrayList;
import java.util.List;

/**
 * Parallel composition: run processes side by side and wait for all of them. It is structured: when one
 * branch fails, the branches still running are cancelled ({@link Fiber#cancel()}), and a cancellation of the
 * process running the par cancels every branch; either way the par returns only once all its branches have
 * ended, so none outlives it.
 */
public final class Parallel {
    private Parallel() {
    }

    /**
     * Runs every process concurrently and returns when all have ended. If any threw, the others still running
     * are cancelled, and once they have ended this rethrows the first failure (in time) with the other real
     * failures added as suppressed (the cancellations it caused are not failures). With no processes, returns
     * at once.
     *
     * @throws CancelledException if the calling fiber is cancelled (or thread interrupted) and no branch
     *     failed: every branch was cancelled and has ended
     */
    @Pausable
    public static void run(CSProcess... processes) {
        if (processes.length == 0) {
            return;
        }
        for (int i = 0; i < processes.length; i++) {
            if (processes[i] == null) {
                throw new NullPointerException("process " + i + " is null");
            }
        }
        Fiber me = Fiber.current();
        if (FiberAccess.cancelPending(me)) {
            throw FiberAccess.cancelledError(me);
        }
        Par par = new Par(processes.length);
        int i = 0;
        // This fiber waits for the branches at once: they run on its carrier as soon as it pauses, unless one
        // lasts (then idle carriers take those queued behind it), not half of them on a carrier woken for them.
        WorkerPool.spawnsAwaited(true);
        try {
            for (; i < processes.length; i++) {
                par.started(i, FiberLifecycle.spawn(processes[i], par));
            }
        } catch (RuntimeException | Error refused) { // the scheduler refused a branch (closed): undo the others
            WorkerPool.spawnsAwaited(false);
            par.neverStarted(processes.length - i);
            par.cancelAll();
            par.awaitAllRegardless();
            throw refused;
        }
        WorkerPool.spawnsAwaited(false);
        CancelledException cancelled = null;
        try {
            par.awaitAll();
        } catch (CancelledException e) {
            cancelled = e;
            par.cancelAll();
            par.awaitAllRegardless();
        }
        Throwable first = par.firstFailure();
        if (first != null) {
            throw Rethrow.unchecked(first);
        }
        if (cancelled != null) {
            throw cancelled;
        }
    }

    /** Par-for: runs {@code body} for every index in [from, to) concurrently and waits for all, as {@link #run}. */
    @Pausable
    public static void forRange(int from, int to, IntProcess body) {
        if (from > to) {
            throw new IllegalArgumentException("forRange: from (" + from + ") > to (" + to + ")");
        }
        CSProcess[] ps = new CSProcess[to - from];
        for (int i = from; i < to; i++) {
            ps[i - from] = new RangeBranch(body, i);
        }
        run(ps);
    }

    /**
     * One index of a {@link #forRange}: a class rather than a lambda, so that each resume of the branch passes
     * one woven frame of Weft's, not two (a lambda's spun class and its woven body), and the JIT compiles one
     * method around the body where it compiled both, each inlining the body's code (JDK 17).
     */
    private static final class RangeBranch extends WrappedProcess {
        private final IntProcess body;
        private final int index;

        RangeBranch(IntProcess body, int index) {
            this.body = body;
            this.index = index;
        }

        @Override
        @Pausable
        public void run() {
            body.run(index);
        }

        /** Dumps name the fiber after the body (a lambda: after the method it is written in). */
        @Override
        protected Object wrapped() {
            return body;
        }
    }

    /**
     * The branches of one par, how many have not ended, and what they threw, in order. Guarded by its monitor;
     * the failure list is made only once a branch fails, so that a par stays small. Each branch tells it of its
     * end ({@link #ending}, {@link #ended}), and the last one wakes the par's fiber: that fiber waits once, on
     * the par, not in each branch's list of joiners (where, beside the par, it would cost each par a list).
     */
    private static final class Par implements EndWatcher, Waitable {
        private final Fiber[] branches;
        private List<Throwable> failures;
        private boolean cancelling;
        /** Branches started or still to start that have not ended. */
        private int running;
        /** The fiber waiting in {@link #awaitAll}, or null. */
        private Fiber waiter;

        Par(int n) {
            branches = new Fiber[n];
            running = n;
        }

        /** A branch ends: a failure is the par's to rethrow (nobody else reports it) and cancels the others. */
        @Override
        public void ending(Fiber branch, Throwable t) {
            if (t != null) {
                failed(t, branch);
            }
        }

        /** A branch is done: the last one wakes the waiting par, which then finds every branch done. */
        @Override
        public void ended(Fiber branch) {
            Fiber wake;
            synchronized (this) {
                running--;
                wake = running == 0 ? waiter : null;
            }
            if (wake != null) {
                wake.unpark();
            }
        }

        /** The last {@code n} branches will never run: the scheduler refused the first of them. */
        synchronized void neverStarted(int n) {
            running -= n;
        }

        /** Records branch {@code i}; one that starts after the par began cancelling is cancelled at once. */
        void started(int i, Fiber f) {
            boolean cancel;
            synchronized (this) {
                branches[i] = f;
                cancel = cancelling;
            }
            if (cancel) {
                f.cancel();
            }
        }

        void failed(Throwable t, Fiber branch) {
            if (t instanceof CancelledException && branch.isCancelled()) {
                return; // the par's own cancellation at work, not a failure
            }
            boolean first;
            synchronized (this) {
                if (failures == null) {
                    failures = new ArrayList<>(2);
                }
                failures.add(t);
                first = !cancelling;
            }
            if (first) {
                cancelAll();
            }
        }

        void cancelAll() {
            Fiber[] all;
            synchronized (this) {
                cancelling = true;
                all = branches.clone();
            }
            for (Fiber f : all) {
                if (f != null) {
                    f.cancel();
                }
            }
        }

        /**
         * Waits for every branch started to end. Throws {@link CancelledException} at once if the waiter is
         * cancelled already, or once it is cancelled while some branch still runs.
         */
        @Pausable
        void awaitAll() {
            Fiber me = Fiber.current();
            if (FiberAccess.cancelPending(me)) {
                throw FiberAccess.cancelledError(me);
            }
            if (!waitingFor(me)) {
                return;
            }
            while (!allEnded()) {
                FiberPauses.waitOn(this);
                if (FiberAccess.cancelPending(me) && !allEnded()) {
                    throw FiberAccess.cancelledError(me);
                }
            }
        }

        /** Waits for every branch started to end, whatever cancellation comes (for cleanup that must see it). */
        @Pausable
        void awaitAllRegardless() {
            Fiber me = Fiber.current();
            if (!waitingFor(me)) {
                return;
            }
            while (!allEnded()) {
                if (FiberAccess.isThreadBound(me)) {
                    ThreadMode.awaitPermit(me);
                } else {
                    FiberPauses.waitOn(this);
                }
            }
        }

        /** Makes {@code me} the fiber the last branch wakes; false if none runs. */
        private synchronized boolean waitingFor(Fiber me) {
            waiter = me;
            return running != 0;
        }

        private synchronized boolean allEnded() {
            return running == 0;
        }

        /** The par ends once its branches have: only fibers of {@code pool} can end it if they are all there. */
        @Override
        public synchronized boolean onlyUsedBy(WorkerPool pool, boolean creatorCounts) {
            for (Fiber f : branches) {
                if (f != null && !f.isDone() && FiberAccess.pool(f) != pool) {
                    return false;
                }
            }
            return true;
        }

        /** For dumps: "the end of a par's 3 branches (2 running)". */
        @Override
        public synchronized String toString() {
            return "the end of a par's " + branches.length + " branches (" + running + " running)";
        }

        /** The first failure with the others added as suppressed, or null. */
        synchronized Throwable firstFailure() {
            if (failures == null) {
                return null;
            }
            Throwable first = failures.get(0);
            for (int i = 1; i < failures.size(); i++) {
                first.addSuppressed(failures.get(i));
            }
            return first;
        }
    }
}
