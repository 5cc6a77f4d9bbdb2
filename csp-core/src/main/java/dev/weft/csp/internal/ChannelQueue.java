package dev.weft.csp.internal;

import dev.weft.csp.Fiber;

/**
 * The wait queue of a channel end as the fiber queued in it sees it: the fiber queues itself under the channel's
 * lock and keeps the lock while it unwinds ({@link FiberPauses#parkLocked}); whoever takes it out of the queue,
 * under that lock, owns its wake-up ({@link Fiber#wakeFromChannel}).
 *
 * <p>A class, not an interface: a carrier casts each fiber's blocker to it as the fiber pauses, and a cast to a
 * class is one compare, where a cast to an interface searches the blocker's interfaces (on JDK 17, for every
 * pause, as the one-entry cache of the last interface found thrashes between this and the channel's own).
 */
public abstract class ChannelQueue extends WaitQueue {
    ChannelQueue() { // the channel ends of this package only
    }

    /**
     * Takes {@code f} out of the queue if it is still waiting there: true if it was (nothing was exchanged; the
     * caller now owns its wake-up), false if a partner took it first or its operation is committed.
     */
    public abstract boolean withdraw(Fiber f);

    /** Fiber {@code f}, queued here, has unwound ({@link Fiber#QUEUED}): the lock it kept is released. */
    public abstract void pausedInQueue();

    /** Fiber {@code f}, queued here, failed before it had unwound: it leaves the queue, the lock is released. */
    public abstract void abandon(Fiber f);
}
