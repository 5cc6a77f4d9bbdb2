package dev.weft.csp.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The carriers of one scheduler. A fiber woken by the fiber running on a worker is queued on that same
 * worker (communicating fibers stay together); new fibers and wake-ups from outside are spread over the
 * workers, and idle workers take work from the others' inboxes.
 */
public final class WorkerPool {
    private final Worker[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final BiConsumer<Object, Throwable> uncaughtHandler;
    volatile boolean closed;

    /** Starts {@code n} carrier threads named after {@code name}. */
    public WorkerPool(int n, String name, BiConsumer<Object, Throwable> uncaughtHandler) {
        if (n < 1) {
            throw new IllegalArgumentException("a scheduler needs at least one worker, got " + n);
        }
        this.uncaughtHandler = uncaughtHandler;
        workers = new Worker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker(this, i);
        }
        for (int i = 0; i < n; i++) {
            workers[i].start(name + "-" + i);
        }
    }

    Worker[] workers() {
        return workers;
    }

    /** Queues a fiber made runnable again: on the current worker if it belongs here, else on one of ours. */
    public void submit(Continuation fiber) {
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            w.pushLocal(fiber);
        } else {
            pick().pushExternal(fiber);
        }
    }

    /** Queues a new fiber, spreading new work over the workers. */
    public void submitNew(Continuation fiber) {
        if (closed) {
            throw new IllegalStateException("the scheduler is closed");
        }
        if (workers.length == 1) {
            submit(fiber);
        } else {
            pick().pushExternal(fiber);
        }
    }

    private Worker pick() {
        return workers[Math.floorMod(next.getAndIncrement(), workers.length)];
    }

    /** Wakes {@code fiber} (by {@code wake.run()}) at {@code deadline} ({@link System#nanoTime()} scale). */
    public void wakeAt(long deadline, Runnable wake) {
        Worker w = Worker.current();
        if (w != null && w.pool == this) {
            w.addTimer(deadline, wake);
        } else {
            pick().addTimerExternal(deadline, wake);
        }
    }

    /** The fiber that the calling carrier thread is running, or null on any other thread. */
    public static Continuation runningHere() {
        Worker w = Worker.current();
        return w == null ? null : w.running;
    }

    /** Hands a failure of an unjoined fiber to the scheduler's handler. */
    public void uncaught(Object fiber, Throwable t) {
        uncaughtHandler.accept(fiber, t);
    }

    /** Refuses new fibers and lets the carriers stop once no fiber can run. */
    public void close() {
        closed = true;
        for (Worker w : workers) {
            w.wake();
        }
    }

    /** The number of carriers. */
    public int size() {
        return workers.length;
    }
}
