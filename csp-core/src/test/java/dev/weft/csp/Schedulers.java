package dev.weft.csp;

import dev.weft.csp.internal.FiberProbe;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/** How concurrency tests run: deterministic on one worker, then many times on two. */
public final class Schedulers {
    private Schedulers() {
    }

    /** Runs {@code test} once on a single-threaded scheduler, then {@code iterations} times on two workers. */
    public static void onOneAndTwoWorkers(int iterations, Consumer<Scheduler> test) {
        try (Scheduler s = Scheduler.singleThreaded()) {
            test.accept(s);
        }
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < iterations; i++) {
                test.accept(s);
            }
        }
    }

    /** Waits until plain thread {@code t} blocks in a pausable operation (thread mode parks on its own fiber). */
    public static void awaitBlocked(Thread t) {
        while (!(LockSupport.getBlocker(t) instanceof Fiber)) {
            if (!t.isAlive()) {
                throw new AssertionError(t + " ended instead of blocking");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted (timed out?) while waiting for " + t + " to block");
            }
            Thread.onSpinWait();
        }
    }

    /** Waits, from a fiber or a thread, until {@code f} is parked. */
    @Pausable
    public static void awaitParked(Fiber f) {
        while (!FiberProbe.isParked(f)) {
            if (f.isDone()) {
                throw new AssertionError(f + " ended instead of blocking");
            }
            Fiber.yield();
        }
    }
}
