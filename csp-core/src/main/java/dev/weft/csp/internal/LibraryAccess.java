package dev.weft.csp.internal;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;
import dev.weft.csp.spi.ApiBridge;

/**
 * The implementation of {@link dev.weft.csp.spi.Extensions} on this package's package-private state, installed
 * by {@link Fiber} as it initialises.
 */
public final class LibraryAccess extends ApiBridge {
    @Override
    protected void usedFromOutside(Object end) {
        if (!(end instanceof ChannelImpl.End)) {
            throw new IllegalArgumentException("not an end of a Weft channel: " + end);
        }
        ((ChannelImpl.End) end).markOutsideUse();
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <T> boolean offer(ChannelOutput<T> out, T value) {
        if (!(out instanceof ChannelImpl<?>.Out)) {
            throw new IllegalArgumentException("not the output of a Weft channel: " + out);
        }
        return ((ChannelImpl<T>.Out) out).offer(value);
    }

    @Override
    protected void parkIgnoringCancellation(Object blocker, Fiber fiber) {
        Fiber f = fiber == null ? ThreadMode.forThread() : fiber;
        if (f.isThreadBound()) {
            ThreadMode.awaitPermit(f);
            return;
        }
        FiberPauses.waitOn(blocker, f);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected <T> T poll(ChannelInput<T> in) {
        return ((ChannelImpl<T>.In) input(in)).takeIfBuffered();
    }

    @Override
    protected boolean awaited(ChannelInput<?> in) {
        return input(in).awaited();
    }

    @Override
    protected WorkerPool pool(Scheduler scheduler) {
        return ApiAccess.api().pool(scheduler);
    }

    @Override
    protected Scheduler simulated(Simulation simulation) {
        return ApiAccess.api().simulated(simulation);
    }

    private static ChannelImpl<?>.In input(ChannelInput<?> in) {
        if (!(in instanceof ChannelImpl<?>.In)) {
            throw new IllegalArgumentException("not the input of a Weft channel: " + in);
        }
        return (ChannelImpl<?>.In) in;
    }
}
