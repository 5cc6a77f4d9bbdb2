package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.Weft;
import dev.weft.csp.runtime.WorkerPool;
import java.util.concurrent.Callable;

/**
 * One {@link Weft#blocking} call in flight: run on a blocking-call thread, it wakes its fiber when done. A
 * fiber cancelled while it waits abandons the call: the thread running it is interrupted and its result is
 * dropped.
 */
public final class BlockingCall<T> implements Runnable {
    private final Callable<T> call;
    private final Fiber fiber;
    private final WorkerPool pool;
    private T result;
    private Throwable failure;
    private volatile boolean done;
    /** The thread running the call while it runs; guarded by this. */
    private Thread runner;
    private boolean abandoned;

    public BlockingCall(Callable<T> call, Fiber fiber) {
        this.call = call;
        this.fiber = fiber;
        this.pool = fiber.pool();
    }

    @Override
    public void run() {
        try {
            synchronized (this) {
                runner = Thread.currentThread();
            }
            try {
                if (!isAbandoned()) {
                    result = call.call();
                }
            } catch (Throwable t) {
                failure = t;
            }
            synchronized (this) {
                runner = null;
            }
            Thread.interrupted(); // an abandonment's interrupt must not reach the pool's next task
            done = true;
            fiber.unpark();
        } finally {
            pool.blockingCall(-1); // after the wake-up: a deadlock check never sees the fiber stranded
        }
    }

    private synchronized boolean isAbandoned() {
        return abandoned;
    }

    /** The waiting fiber was cancelled: interrupts the call if it still runs; false if it has returned. */
    public synchronized boolean abandon() {
        if (done) {
            return false;
        }
        abandoned = true;
        if (runner != null) {
            runner.interrupt();
        }
        return true;
    }

    public boolean isDone() {
        return done;
    }

    /**
     * The call's value, or its very exception rethrown. Called by the fiber once it has resumed, so that the
     * exception, whose own stack is the blocking-call thread's, gets the fiber's stack too: a suppressed
     * {@link CalledFrom} made here shows where the fiber called {@code Weft.blocking}.
     */
    public T result() {
        if (failure != null) {
            failure.addSuppressed(new CalledFrom(fiber));
            throw Rethrow.unchecked(failure);
        }
        return result;
    }

    /** Where a fiber called {@link Weft#blocking}: its stack, as it stands once the fiber has resumed. */
    static final class CalledFrom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CalledFrom(Fiber fiber) {
            super("the call was made by " + fiber + " in Weft.blocking, from:");
        }
    }

    @Override
    public String toString() {
        return "Weft.blocking(" + call + ")";
    }
}
