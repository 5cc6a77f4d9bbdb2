package dev.weft.csp.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fibers of one {@code Weft.run} call: its main process and everything spawned within it. The caller
 * waits until the count of live fibers drops to zero.
 */
public final class RunGroup {
    private final AtomicInteger live = new AtomicInteger();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Object main;
    private volatile Throwable mainFailure;
    private volatile Throwable failed;

    /** Records the main fiber, whose exception the caller of {@code Weft.run} rethrows. */
    public void setMain(Object fiber) {
        this.main = fiber;
    }

    /** Whether {@code fiber} is this group's main fiber. */
    public boolean isMain(Object fiber) {
        return main == fiber;
    }

    /** Counts a fiber that is about to start. */
    public void started() {
        live.incrementAndGet();
    }

    /** Counts a fiber that ended, with its failure or null. */
    public void ended(Object fiber, Throwable failure) {
        if (fiber == main) {
            mainFailure = failure;
        }
        if (live.decrementAndGet() == 0) {
            finished.countDown();
        }
    }

    /**
     * Ends the wait of {@code Weft.run} with {@code failure} (a deadlock) although fibers of the group are
     * still alive; false if the group had already finished or failed.
     */
    public synchronized boolean fail(Throwable failure) {
        if (failed != null || finished.getCount() == 0) {
            return false;
        }
        failed = failure;
        finished.countDown();
        return true;
    }

    /** Whether {@link #fail} ended the group. */
    public boolean hasFailed() {
        return failed != null;
    }

    /**
     * Blocks the calling thread until every fiber of the group has ended, or the group failed; returns the
     * failure ({@link #fail}'s, else main's) or null.
     */
    public Throwable await() throws InterruptedException {
        finished.await();
        Throwable f = failed;
        return f != null ? f : mainFailure;
    }
}
