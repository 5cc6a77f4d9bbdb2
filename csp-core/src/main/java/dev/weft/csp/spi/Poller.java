package dev.weft.csp.spi;

/**
 * A carrier's I/O poller, plugged into a scheduler by an I/O library ({@link dev.weft.csp.runtime.WorkerPool#plugPollers}); csp-core
 * depends on none. The carrier drives it: an idle carrier waits in {@link #await} instead of parking, bounded by
 * its next timer; a busy one calls {@link #pollNow} between slices, at most every few tens of microseconds. What
 * the poller finds ready it handles on the calling thread, so a fiber woken by it joins that carrier's batch and
 * runs there next, with no thread hand-off.
 *
 * <p>Every method but {@link #wakeUp} and {@link #pollAside} is called by the poller's own carrier only.
 */
public interface Poller {
    /** Handles the I/O that is ready now (and what was queued for this carrier's connections), never blocking. */
    void pollNow();

    /**
     * Runs what this carrier's fibers queued for its connections (their writes), without polling and never
     * blocking. The carrier calls it as soon as its batch runs out, before it looks for work elsewhere and waits:
     * what the batch wrote leaves first, and a reply does not wait for that bookkeeping. A poller with nothing
     * queued apart from its polls does nothing.
     */
    default void flush() {
    }

    /**
     * As {@link #pollNow}, but waits up to {@code nanos} ({@link Long#MAX_VALUE}: without bound) for I/O or a
     * {@link #wakeUp}. A wake-up that comes after the carrier decided to wait, even before this call, makes it
     * return at once: none is lost (at worst one spurious early return follows). That includes the wake-up the
     * carrier sends itself when what this call handles before it blocks (queued tasks, say) makes a fiber runnable
     * there: the poller must look for a wake-up after that work, just before it blocks.
     */
    void await(long nanos);

    /** Any thread: ends the current or next {@link #await} of this poller's carrier at once. */
    void wakeUp();

    /**
     * Called by another carrier of the same scheduler while this poller's carrier has neither polled nor begun a
     * slice for a millisecond or more, and is not waiting in {@link #await}: it is held in a long slice, or not
     * running at all (the machine's other processes have its thread). Handles the ready I/O on the calling
     * thread, without blocking, if it can without getting in the way of the carrier (if its carrier polls
     * meanwhile it may do nothing).
     */
    void pollAside();

    /** The carrier stops: releases what the poller holds. */
    void close();

    /**
     * Runs {@code dispatching}, the rest of the carrier's dispatch loop (it returns as the carrier stops), on the
     * carrier, inside whatever per-thread context the poller's library needs on the threads that drive it (Netty's
     * object pools, for one, recycle only on threads that say they clear their thread-locals). Called once, by the
     * carrier, between two slices soon after the poller is plugged in; {@link #close} follows outside it. By
     * default it just runs it.
     */
    default void runCarrier(Runnable dispatching) {
        dispatching.run();
    }
}
