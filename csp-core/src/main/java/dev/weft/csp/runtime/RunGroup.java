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

    /** Blocks the calling thread until every fiber of the group has ended; returns main's failure or null. */
    public Throwable await() throws InterruptedException {
        finished.await();
        return mainFailure;
    }
}
