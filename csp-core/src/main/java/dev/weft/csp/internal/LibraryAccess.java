package dev.weft.csp.internal;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;

/**
 * What {@link dev.weft.csp.spi.Extensions} does, on the internal state of channels and fibers. Public for the
 * SPI package only: this package is not exported, so libraries reach it through {@code Extensions} alone.
 */
public final class LibraryAccess {
    private LibraryAccess() {
    }

    /** See {@link dev.weft.csp.spi.Extensions#usedFromOutside}. */
    public static void usedFromOutside(Object end) {
        if (!(end instanceof ChannelImpl.End)) {
            throw new IllegalArgumentException("not an end of a Weft channel: " + end);
        }
        ((ChannelImpl.End) end).markOutsideUse();
    }

    /** See {@link dev.weft.csp.spi.Extensions#offer}. */
    @SuppressWarnings("unchecked")
    public static <T> boolean offer(ChannelOutput<T> out, T value) {
        if (!(out instanceof ChannelImpl<?>.Out)) {
            throw new IllegalArgumentException("not the output of a Weft channel: " + out);
        }
        return ((ChannelImpl<T>.Out) out).offer(value);
    }

    /** See {@link dev.weft.csp.spi.Extensions#parkIgnoringCancellation}. */
    public static void parkIgnoringCancellation(Object blocker, Fiber fiber) {
        Fiber f = fiber == null ? ThreadMode.forThread() : fiber;
        if (f.isThreadBound()) {
            ThreadMode.awaitPermit(f);
            return;
        }
        FiberPauses.waitOn(blocker, f);
    }

    /** See {@link dev.weft.csp.spi.Extensions#poll}. */
    @SuppressWarnings("unchecked")
    public static <T> T poll(ChannelInput<T> in) {
        return ((ChannelImpl<T>.In) input(in)).takeIfBuffered();
    }

    /** See {@link dev.weft.csp.spi.Extensions#awaited}. */
    public static boolean awaited(ChannelInput<?> in) {
        return input(in).awaited();
    }

    /** See {@link dev.weft.csp.spi.Extensions#pool}. */
    public static WorkerPool pool(Scheduler scheduler) {
        return ApiAccess.api().pool(scheduler);
    }

    /** See {@link dev.weft.csp.spi.Extensions#simulated}. */
    public static Scheduler simulated(Simulation simulation) {
        return ApiAccess.api().simulated(simulation);
    }

    private static ChannelImpl<?>.In input(ChannelInput<?> in) {
        if (!(in instanceof ChannelImpl<?>.In)) {
            throw new IllegalArgumentException("not the input of a Weft channel: " + in);
        }
        return (ChannelImpl<?>.In) in;
    }
}
