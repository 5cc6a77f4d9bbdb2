package dev.weft.csp;

import dev.weft.csp.runtime.WorkerPool;

/**
 * What libraries built on Weft need beyond the public API (csp-net uses it); programs do not need it.
 */
public final class Extensions {
    private Extensions() {
    }

    /**
     * Marks the channel of {@code end} as used by a party outside every scheduler (a network event loop),
     * so that a fiber waiting on it is never reported as deadlocked: that party may still come.
     *
     * @throws IllegalArgumentException if {@code end} is not an end of a channel made by {@link Channel}
     */
    public static void usedFromOutside(Object end) {
        if (!(end instanceof ChannelImpl.End)) {
            throw new IllegalArgumentException("not an end of a Weft channel: " + end);
        }
        ((ChannelImpl.End) end).markOutsideUse();
    }

    /**
     * Writes {@code value} without ever waiting, from any thread, even from a method that is not
     * {@code @Pausable} on a carrier: a waiting reader takes it, or it goes in the buffer. Returns false, having
     * written nothing, if the buffer is full or the channel poisoned. Counts as a use from outside (see
     * {@link #usedFromOutside}).
     *
     * @throws IllegalArgumentException if {@code out} is not the output of a buffered channel made by
     *                                  {@link Channel}
     * @throws NullPointerException     if {@code value} is null
     */
    @SuppressWarnings("unchecked")
    public static <T> boolean offer(ChannelOutput<T> out, T value) {
        if (!(out instanceof ChannelImpl<?>.Out)) {
            throw new IllegalArgumentException("not the output of a Weft channel: " + out);
        }
        return ((ChannelImpl<T>.Out) out).offer(value);
    }

    /**
     * As {@link Fiber#parkOn(Object)}, except that a cancellation of the fiber (or an interrupt of the thread)
     * does not end the wait: for a library's cleanup that must learn an outcome before it unwinds (csp-net's
     * cancelled write waits to learn whether its value was read). The cancellation stays pending: the next
     * ordinary pause throws it. Only for waits that something else bounds; wake with {@link Fiber#unpark()}.
     * It may return without a wake-up: call it in a loop that checks what it waits for.
     */
    @Pausable
    public static void parkIgnoringCancellation(Object blocker) {
        ThreadMode.awaitPermit(ThreadMode.forThread());
    }

    /** Woven form of {@link #parkIgnoringCancellation(Object)}. */
    public static void parkIgnoringCancellation(Object blocker, Fiber f) {
        if (f.isThreadBound()) {
            ThreadMode.awaitPermit(f);
            return;
        }
        FiberPauses.waitOn(blocker, f);
    }

    /**
     * Takes the first buffered value of {@code in} without waiting, from any thread: null if there is none or
     * the channel is poisoned (for a library that moves a channel's contents elsewhere, as csp-net's mobile
     * inputs).
     *
     * @throws IllegalArgumentException if {@code in} is not the input of a channel made by {@link Channel}
     */
    @SuppressWarnings("unchecked")
    public static <T> T poll(ChannelInput<T> in) {
        return ((ChannelImpl<T>.In) input(in)).takeIfBuffered();
    }

    /**
     * Whether a party uses {@code in} right now: a reader waits on it, or an alternative waiting on it as a guard
     * has registered there.
     *
     * @throws IllegalArgumentException if {@code in} is not the input of a channel made by {@link Channel}
     */
    public static boolean awaited(ChannelInput<?> in) {
        return input(in).awaited();
    }

    /**
     * The carriers of {@code scheduler}, for a library that plugs an I/O poller into them
     * ({@link WorkerPool#plugPollers}).
     */
    public static WorkerPool pool(Scheduler scheduler) {
        return scheduler.pool;
    }

    private static ChannelImpl<?>.In input(ChannelInput<?> in) {
        if (!(in instanceof ChannelImpl<?>.In)) {
            throw new IllegalArgumentException("not the input of a Weft channel: " + in);
        }
        return (ChannelImpl<?>.In) in;
    }
}
