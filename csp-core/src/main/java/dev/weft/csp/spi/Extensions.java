package dev.weft.csp.spi;

import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.DeadlockException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Select;
import dev.weft.csp.Timer;
import dev.weft.csp.internal.LibraryAccess;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;

/**
 * What libraries built on Weft need beyond the public API (csp-net and csp-test use it); programs do not need
 * it.
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
        LibraryAccess.usedFromOutside(end);
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
    public static <T> boolean offer(ChannelOutput<T> out, T value) {
        return LibraryAccess.offer(out, value);
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
        LibraryAccess.parkIgnoringCancellation(blocker, null);
    }

    /** Woven form of {@link #parkIgnoringCancellation(Object)}. */
    public static void parkIgnoringCancellation(Object blocker, Fiber f) {
        LibraryAccess.parkIgnoringCancellation(blocker, f);
    }

    /**
     * Takes the first buffered value of {@code in} without waiting, from any thread: null if there is none or
     * the channel is poisoned (for a library that moves a channel's contents elsewhere, as csp-net's mobile
     * inputs).
     *
     * @throws IllegalArgumentException if {@code in} is not the input of a channel made by {@link Channel}
     */
    public static <T> T poll(ChannelInput<T> in) {
        return LibraryAccess.poll(in);
    }

    /**
     * Whether a party uses {@code in} right now: a reader waits on it, or an alternative waiting on it as a guard
     * has registered there.
     *
     * @throws IllegalArgumentException if {@code in} is not the input of a channel made by {@link Channel}
     */
    public static boolean awaited(ChannelInput<?> in) {
        return LibraryAccess.awaited(in);
    }

    /**
     * The carriers of {@code scheduler}, for a library that plugs an I/O poller into them
     * ({@link WorkerPool#plugPollers}).
     */
    public static WorkerPool pool(Scheduler scheduler) {
        return LibraryAccess.pool(scheduler);
    }

    /**
     * A scheduler for tests (csp-test's {@code @WeftTest}): one carrier, driven by {@code simulation}. Its
     * fibers' deadlines ({@link Timer}, {@link Guards#timeout}, timed joins, {@link Select#timeout}) run on
     * the simulation's virtual clock, which jumps to the next timer as soon as every fiber waits (and no
     * plain thread or blocking call could still wake one); each next fiber, each alternative's first guard,
     * and a yield at each channel operation are drawn from its seed. A run that spends the step budget fails
     * as a deadlocked one does ({@link DeadlockException}), its message saying so, with a fiber dump.
     */
    public static Scheduler simulated(Simulation simulation) {
        return LibraryAccess.simulated(simulation);
    }
}
