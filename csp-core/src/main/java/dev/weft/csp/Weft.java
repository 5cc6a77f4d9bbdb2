package dev.weft.csp;

import dev.weft.csp.runtime.BlockingCalls;
import dev.weft.csp.runtime.RunGroup;
import java.util.concurrent.Callable;

/** Entry points: run a process to completion, or spawn one beside the current process. */
public final class Weft {
    private Weft() {
    }

    /** Runs {@code main} on the default scheduler; see {@link #run(Scheduler, CSProcess)}. */
    public static void run(CSProcess main) {
        run(Scheduler.defaultScheduler(), main);
    }

    /**
     * Runs {@code main} as a fiber of {@code s} and returns when it and every fiber spawned within it have
     * ended. If {@code main} threw, rethrows that very exception.
     *
     * @throws DeadlockException if it becomes certain that no fiber of {@code s} can ever run again while
     *     fibers of this run are still blocked (see {@link DeadlockException}); those fibers stay parked
     */
    public static void run(Scheduler s, CSProcess main) {
        if (s == null || main == null) {
            throw new NullPointerException(s == null ? "scheduler is null" : "main process is null");
        }
        RunGroup group = new RunGroup();
        Fiber f = new Fiber(main, s.pool, group);
        group.setMain(f);
        f.launch();
        Throwable failure;
        try {
            failure = group.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Weft.run", e);
        }
        if (failure instanceof DeadlockException && group.hasFailed()) {
            throw new DeadlockException(failure.getMessage()); // made here: its stack shows this Weft.run
        }
        if (failure != null) {
            throw Rethrow.unchecked(failure);
        }
    }

    /**
     * Starts {@code p} concurrently. From a fiber it runs on that fiber's scheduler and counts towards the
     * enclosing {@link #run}; from a plain thread it runs on the default scheduler.
     */
    public static Fiber spawn(CSProcess p) {
        if (p == null) {
            throw new NullPointerException("process is null");
        }
        Fiber parent = Fiber.runningFiber();
        if (parent != null) {
            return Fiber.start(p, parent.pool(), parent.group());
        }
        return Fiber.start(p, Scheduler.defaultScheduler().pool, null);
    }

    /**
     * Runs a blocking Java call (file, socket, JDBC, a lock) on a separate pool of threads and returns its
     * value. From a fiber, the fiber pauses until the call returns and its carrier runs other fibers
     * meanwhile; from a plain thread, the call simply runs on that thread. If the call throws, this rethrows
     * the very same exception, checked ones included (catch them as {@code Exception} or with a
     * {@code catch} of their type around code that declares them).
     */
    @Pausable
    public static <T> T blocking(Callable<T> call) {
        if (call == null) {
            throw new NullPointerException("call is null");
        }
        Fiber me = Fiber.current();
        if (me.isThreadBound()) {
            try {
                return call.call();
            } catch (Exception e) {
                throw Rethrow.unchecked(e);
            }
        }
        BlockingCall<T> task = new BlockingCall<>(call, me);
        me.pool().blockingCall(1);
        try {
            BlockingCalls.execute(task);
        } catch (RuntimeException | Error e) {
            me.pool().blockingCall(-1);
            throw e;
        }
        do {
            Fiber.parkOn(task);
        } while (!task.isDone());
        return task.result();
    }
}
