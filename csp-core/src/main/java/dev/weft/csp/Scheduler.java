package dev.weft.csp;

import dev.weft.csp.runtime.WorkerPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs fibers on a fixed set of carrier threads. One scheduler serves any number of {@link Weft#run} calls,
 * one after another or at once. {@link #close()} refuses new work and stops the carriers once no fiber can
 * run.
 */
public final class Scheduler implements AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static volatile Scheduler defaultScheduler;

    final WorkerPool pool;

    private Scheduler(int workers, String name) {
        this.pool = new WorkerPool(workers, name, Scheduler::printUncaught);
    }

    /** A work-stealing scheduler with {@code workers} carrier threads. */
    public static Scheduler create(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        return new Scheduler(workers, "weft-" + IDS.incrementAndGet());
    }

    /** A scheduler with one carrier: fibers run one at a time in a deterministic order. */
    public static Scheduler singleThreaded() {
        return new Scheduler(1, "weft-single-" + IDS.incrementAndGet());
    }

    /** The shared scheduler, one worker per available processor, created on first use. */
    public static Scheduler defaultScheduler() {
        Scheduler s = defaultScheduler;
        if (s == null) {
            synchronized (Scheduler.class) {
                s = defaultScheduler;
                if (s == null) {
                    s = new Scheduler(Runtime.getRuntime().availableProcessors(), "weft-default");
                    defaultScheduler = s;
                }
            }
        }
        return s;
    }

    /** The number of carrier threads. */
    public int workers() {
        return pool.size();
    }

    @Override
    public void close() {
        if (this == defaultScheduler) {
            throw new IllegalStateException("the default scheduler is shared and cannot be closed");
        }
        pool.close();
    }

    private static void printUncaught(Object fiber, Throwable t) {
        System.err.println("Exception in " + fiber + ":");
        t.printStackTrace();
    }
}
