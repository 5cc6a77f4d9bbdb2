package dev.weft.csp;

import dev.weft.csp.internal.BlockingCall;
import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberLifecycle;
import dev.weft.csp.internal.FiberPauses;
import dev.weft.csp.internal.NamedProcess;
import dev.weft.csp.internal.Rethrow;
import dev.weft.csp.runtime.BlockingCalls;
import dev.weft.csp.runtime.Carrier;
import dev.weft.csp.runtime.RunGroup;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Entry points: run a process to completion, or spawn one beside the current process. */
public final class Weft {
    private Weft() {
    }

    /** Runs {@code main} on the default scheduler; see {@link #run(Scheduler, CSProcess)}. */
    public static void run(CSProcess main) {
        Scheduler s = Scheduler.defaultScheduler();
        RunGroup group = start(s, main);
        main = null; // see run(Scheduler, CSProcess)
        finish(s, group);
    }

    /**
     * Runs {@code main} as a fiber of {@code s} and returns when it and every fiber spawned within it have
     * ended. If {@code main} threw, the fibers of the run still alive are cancelled ({@link Fiber#cancel()}),
     * and once they have ended this rethrows that very exception.
     *
     * @throws DeadlockException if it becomes certain that no fiber of {@code s} can ever run again while
     *     fibers of this run are still blocked (see {@link DeadlockException}); those fibers are cancelled
     *     first and have ended when it is thrown; failures of fibers nobody joined come with it as suppressed
     * @throws CancelledException if the calling thread is interrupted: the run's fibers are cancelled, and
     *     once they have ended this throws with the interrupt status kept set
     * @throws IllegalStateException if called from a fiber (it would block that fiber's carrier: use
     *     {@link Parallel#run} or {@link #spawn} and {@link Fiber#join()} there), or if {@code s} is closed
     */
    public static void run(Scheduler s, CSProcess main) {
        RunGroup group = start(s, main);
        // This frame waits as long as the run: it must not keep main, and what main's lambda captured,
        // reachable, or a deadlock probe would always find the run's fibers reachable from this thread.
        main = null;
        finish(s, group);
    }

    /** Starts the run of {@code main} on {@code s}: its group, which holds the main fiber only weakly. */
    private static RunGroup start(Scheduler s, CSProcess main) {
        if (s == null || main == null) {
            throw new NullPointerException(s == null ? "scheduler is null" : "main process is null");
        }
        if (Thread.currentThread() instanceof Carrier) {
            throw new IllegalStateException("Weft.run called from a fiber on " + Thread.currentThread().getName()
                    + ": it would block the carrier; inside a fiber, use Parallel.run, or Weft.spawn and join");
        }
        RunGroup group = new RunGroup(Thread.currentThread());
        Fiber f = new Fiber(main, group);
        group.setMain(f);
        s.pool.runStarted(group);
        try {
            FiberLifecycle.launch(f, s.pool);
        } catch (RuntimeException | Error e) {
            s.pool.runEnded(group);
            throw e;
        }
        return group;
    }

    /** Waits for the run of {@code group} to end, and throws what ended it, if anything did. */
    private static void finish(Scheduler s, RunGroup group) {
        boolean interrupted;
        try {
            interrupted = awaitRun(s, group);
        } finally {
            s.pool.runEnded(group);
        }
        Throwable failure = group.mainFailure();
        boolean mainCancelled = failure instanceof CancelledException && group.mainCancelled();
        if (failure != null && !mainCancelled) {
            if (group.deadlock() != null) {
                failure.addSuppressed(group.deadlock());
            }
            throw Rethrow.unchecked(failure);
        }
        if (group.deadlock() != null) {
            DeadlockException report = new DeadlockException(group.deadlock().getMessage()); // with this stack
            for (Throwable t : group.unjoinedFailures()) {
                report.addSuppressed(t);
            }
            throw report;
        }
        if (interrupted) {
            throw new CancelledException("Weft.run was interrupted: its fibers were cancelled");
        }
        if (failure != null) {
            throw Rethrow.unchecked(failure);
        }
    }

    /**
     * Waits until every fiber of the run has ended. When main fails, a deadlock is found or this thread is
     * interrupted, cancels the run's fibers first (once); a dead carrier fails the run at once. Returns
     * whether the thread was interrupted meanwhile (its interrupt status is set again).
     */
    private static boolean awaitRun(Scheduler s, RunGroup group) {
        boolean interrupted = false;
        try {
            while (!group.isFinished()) {
                if (group.crash() != null) {
                    throw new IllegalStateException("the scheduler " + s.name() + " lost a carrier thread; this run"
                            + " cannot end", group.crash());
                }
                if (!group.isCancelling() && (group.mainFailed() || group.deadlock() != null || interrupted)) {
                    group.markCancelling();
                    FiberLifecycle.cancelAll(s.pool, group);
                }
                try {
                    group.awaitEvent();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return interrupted;
    }

    /**
     * Starts {@code p} concurrently. From a fiber it runs on that fiber's scheduler and counts towards the
     * enclosing {@link #run}; from a plain thread it runs on the default scheduler. What it throws goes to
     * whoever joins it ({@link Fiber#join()}); if nobody does, to the scheduler's handler, once (see
     * {@link Scheduler.Builder#uncaughtFailureHandler}).
     */
    public static Fiber spawn(CSProcess p) {
        if (p == null) {
            throw new NullPointerException("process is null");
        }
        return FiberLifecycle.spawn(p, null);
    }

    /**
     * Starts {@code c} concurrently, as {@link #spawn(CSProcess)} does, and returns a handle whose
     * {@link Task#join()} gives its value, or rethrows its failure; a failure that nobody joins goes to the
     * scheduler's handler instead, once.
     *
     * @throws NullPointerException if {@code c} is null
     */
    public static <T> Task<T> async(Computation<T> c) {
        if (c == null) {
            throw new NullPointerException("computation is null");
        }
        return Task.start(c);
    }

    /**
     * Starts {@code p} on scheduler {@code s}, from anywhere, without waiting for it: a plain thread hands work
     * to a scheduler this way (its failure, if nobody joins it, goes to the scheduler's handler). The fiber
     * belongs to no {@link #run}, even when a fiber of that scheduler spawns it: join it if you need its end.
     *
     * @throws IllegalStateException if the scheduler is closed
     */
    public static Fiber spawn(Scheduler s, CSProcess p) {
        if (s == null) {
            throw new NullPointerException("scheduler is null");
        }
        if (p == null) {
            throw new NullPointerException("process is null");
        }
        return FiberLifecycle.start(p, s.pool, null);
    }

    /**
     * As {@link #spawn(CSProcess)}, the fiber named {@code name}: fiber dumps, deadlock reports, the report of
     * a failure nobody joined and the handle's {@code toString()} show it.
     *
     * @throws IllegalArgumentException if {@code name} is null or blank
     */
    public static Fiber spawn(String name, CSProcess p) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a fiber's name must not be " + (name == null ? "null" : "blank"));
        }
        if (p == null) {
            throw new NullPointerException("process is null");
        }
        return spawn(new NamedProcess(name, p));
    }

    /**
     * As {@link #blocking(Callable)}, with the call's checked exception declared: {@code catch (IOException e)}
     * around {@code Weft.blockingChecked(() -> Files.readString(path))} catches it as itself. (The
     * {@code Callable} form cannot declare it without making every caller handle whatever its lambda throws.)
     *
     * @param <X> the checked exception the call throws ({@code RuntimeException} when it throws none)
     * @throws X the call's own exception
     */
    @Pausable
    public static <T, X extends Exception> T blockingChecked(BlockingCallable<T, X> call) throws X {
        return blocking(call);
    }

    /**
     * Runs a blocking Java call (file, socket, JDBC, a lock) on a separate pool of threads and returns its
     * value. From a fiber, the fiber pauses until the call returns and its carrier runs other fibers
     * meanwhile; from a plain thread, the call simply runs on that thread. If the call throws, this rethrows
     * the very same exception, not a wrapper, checked ones undeclared (catch them as {@code Exception}, or use
     * {@link #blockingChecked} to catch them as themselves).
     */
    @Pausable
    public static <T> T blocking(Callable<T> call) {
        if (call == null) {
            throw new NullPointerException("call is null");
        }
        Fiber me = Fiber.current();
        if (FiberAccess.isThreadBound(me)) {
            try {
                return call.call();
            } catch (Exception e) {
                throw Rethrow.unchecked(e);
            }
        }
        if (FiberAccess.cancelPending(me)) {
            throw FiberAccess.cancelledError(me);
        }
        BlockingCall<T> task = new BlockingCall<>(call, me);
        FiberAccess.pool(me).blockingCall(1);
        try {
            BlockingCalls.execute(task);
        } catch (RuntimeException | Error e) {
            FiberAccess.pool(me).blockingCall(-1);
            throw e;
        }
        do {
            FiberPauses.waitOn(task);
            if (!task.isDone() && FiberAccess.cancelPending(me) && task.abandon()) {
                throw FiberAccess.cancelledError(me); // the call's thread is interrupted; what it returns is dropped
            }
        } while (!task.isDone());
        return task.result();
    }

    /**
     * Waits until {@code stage} completes and returns its value, or throws what
     * {@link CompletableFuture#join()} would: {@link java.util.concurrent.CompletionException} wrapping the
     * failure, or {@link java.util.concurrent.CancellationException}. A fiber pauses (no thread is held: the
     * completion wakes it; completed on a carrier of its scheduler, it resumes there, without a hand-off); a
     * plain thread blocks. A fiber waiting here is never part of a deadlock report.
     *
     * @throws CancelledException if the fiber is cancelled (a plain thread interrupted, its interrupt status
     *     kept) before {@code stage} completes; its future is then cancelled
     *     ({@code toCompletableFuture().cancel(false)}), as the waiter no longer wants it
     */
    @Pausable
    public static <T> T await(CompletionStage<T> stage) {
        if (stage == null) {
            throw new NullPointerException("stage is null");
        }
        CompletableFuture<T> future = stage.toCompletableFuture();
        if (!future.isDone()) {
            Readiness done = new Readiness(future::isDone, future);
            future.whenComplete((value, failure) -> done.signal());
            try {
                done.await();
            } catch (CancelledException e) {
                future.cancel(false);
                throw e;
            }
        }
        return future.join();
    }
}
