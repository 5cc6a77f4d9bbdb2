package dev.weft.csp;

import dev.weft.csp.runtime.WorkerPool;
import java.util.concurrent.Callable;

/** One {@link Weft#blocking} call in flight: run on a blocking-call thread, it wakes its fiber when done. */
final class BlockingCall<T> implements Runnable {
    private final Callable<T> call;
    private final Fiber fiber;
    private final WorkerPool pool;
    private T result;
    private Throwable failure;
    private volatile boolean done;

    BlockingCall(Callable<T> call, Fiber fiber) {
        this.call = call;
        this.fiber = fiber;
        this.pool = fiber.pool();
    }

    @Override
    public void run() {
        try {
            result = call.call();
        } catch (Throwable t) {
            failure = t;
        }
        done = true;
        fiber.unpark();
        pool.blockingCall(-1); // after the wake-up: a deadlock check never sees the fiber stranded
    }

    boolean isDone() {
        return done;
    }

    /** The call's value, or its very exception rethrown. */
    T result() {
        if (failure != null) {
            throw Rethrow.unchecked(failure);
        }
        return result;
    }

    @Override
    public String toString() {
        return "Weft.blocking(" + call + ")";
    }
}
