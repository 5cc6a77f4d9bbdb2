package dev.weft.csp.internal;

import dev.weft.csp.Fiber;

/**
 * The wait queue of a channel end as the fiber queued in it sees it: the fiber queues itself under the channel's
 * lock and keeps the lock while it unwinds ({@link FiberPauses#parkLocked}); whoever takes it out of the queue,
 * under that lock, owns its wake-up ({@link Fiber#wakeFromChannel}).
 */
public interface ChannelQueue {
    /**
     * Takes {@code f} out of the queue if it is still waiting there: true if it was (nothing was exchanged; the
     * caller now owns its wake-up), false if a partner took it first or its operation is committed.
     */
    boolean withdraw(Fiber f);

    /** Fiber {@code f}, queued here, has unwound ({@link Fiber#QUEUED}): the lock it kept is released. */
    void pausedInQueue();

    /** Fiber {@code f}, queued here, failed before it had unwound: it leaves the queue, the lock is released. */
    void abandon(Fiber f);
}
