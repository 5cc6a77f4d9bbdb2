package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.abi.Continuation;
import dev.weft.csp.runtime.FiberPrimitives;
import dev.weft.csp.runtime.Simulation;
import static dev.weft.csp.Fiber.INTO_CHANNEL;
import static dev.weft.csp.Fiber.RUNNING_STATE;
import static dev.weft.csp.Fiber.RUNNING_WOKEN;
import static dev.weft.csp.Fiber.THREAD_BOUND;
import static dev.weft.csp.Fiber.YIELDING;
import static dev.weft.csp.abi.Continuation.PAUSING;
import static dev.weft.csp.abi.Continuation.RESUMING;
import static dev.weft.csp.abi.Continuation.RUNNING;

/**
 * How a fiber pauses in the runtime's primitives, written by hand in the woven form the weaver would give them:
 * called to pause, a primitive records why ({@link Fiber#blocker}, {@link Fiber#pauseKind}) and sets the fiber
 * {@link Continuation#PAUSING}, after which every woven frame unwinds and the carrier's slice ends
 * ({@link Fiber#runSlice}); called again as the fiber resumes ({@link Continuation#RESUMING}), it completes the
 * pause. The weaver recognises a method {@code m(args)} marked {@link Pausable} that has a method
 * {@code m(args, Fiber)} beside it as hand-woven, and sends woven callers to the second.
 *
 * <p>Here are the runtime's own primitives ({@link #waitOn}, {@link #parkLocked}, {@link #simulationPoint}) and
 * what the woven forms of {@link Fiber}'s public ones do; woven user code reaches those through
 * {@link dev.weft.csp.abi.HandWoven}, which calls {@link Installed}. On a plain thread's own fiber every one of
 * them blocks the thread or does nothing ({@link ThreadMode}).
 */
public final class FiberPauses {
    private FiberPauses() {
    }

    /** What the woven form of {@link Fiber#parkOn(Object)} does: a cancellation pending throws first. */
    public static void parkOn(Object blocker, Fiber f) {
        if (f.mode != RESUMING && f.cancelPending()) {
            throw f.cancelledError();
        }
        waitOn(blocker, f);
    }

    /**
     * As {@link Fiber#parkOn(Object)} for the runtime's own primitives, which register the fiber with
     * {@code blocker} first: no check for cancellation here (each primitive withdraws its registration, then
     * throws); on a plain thread an interrupt withdraws the wait from {@code blocker} ({@link ThreadMode#withdraw}).
     */
    @Pausable
    public static void waitOn(Object blocker) {
        ThreadMode.block(ThreadMode.forThread(), blocker);
    }

    /** Woven form of {@link #waitOn(Object)}. */
    public static void waitOn(Object blocker, Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
            f.blocker = null;
        } else {
            int s = f.state;
            if (s == THREAD_BOUND) {
                ThreadMode.block(f, blocker);
            } else if (s == RUNNING_WOKEN) {
                f.state = RUNNING_STATE; // woken before it could pause: go on without unwinding (only its wakers CAS it from RUNNING)
            } else {
                f.blocker = blocker;
                f.mode = PAUSING;
            }
        }
    }

    /**
     * Pauses the running fiber in the wait queue of {@code channel}, whose lock the caller holds and has
     * queued the fiber under. The lock stays held while the fiber unwinds and is released once it has
     * unwound (see {@link Fiber#runSlice}): whoever finds the fiber in the queue then owns its wake-up
     * ({@link Fiber#wakeFromChannel}), so neither side needs an atomic read-modify-write on the fiber. The
     * channel's wake-up is the only one: {@link Fiber#unpark()} leaves such a fiber alone.
     *
     * <p>A plain thread releases the lock itself before it calls this (in its own frame, where a failure
     * handler can tell whether the release happened) and blocks here.
     */
    @Pausable
    static void parkLocked(ChannelQueue queue) {
        ThreadMode.blockInQueue(ThreadMode.forThread(), queue);
    }

    /** Woven form of {@link #parkLocked(ChannelQueue)}. */
    static void parkLocked(ChannelQueue queue, Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
            f.blocker = null;
        } else if (f.isThreadBound()) {
            ThreadMode.blockInQueue(f, queue);
        } else {
            f.blocker = queue;
            f.pauseKind = INTO_CHANNEL;
            f.mode = PAUSING;
        }
    }

    /** What the woven form of {@link Fiber#yield()} does. */
    public static void yield(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (f.isThreadBound()) {
            Thread.yield();
        } else {
            yielding(f);
        }
    }

    /** What the woven form of {@link Fiber#yieldIfDue()} does. */
    public static void yieldIfDue(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING; // back from the yield below
        } else if (f.preemptCheckDue(Fiber.PREEMPT_CHECKS) && f.pool().hasOtherWorkHere()) {
            yielding(f);
        }
    }

    /** What the woven form of {@link Fiber#yieldIfOthersWait()} does. */
    public static void yieldIfOthersWait(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (!f.isThreadBound() && f.pool().hasOtherWorkHere()) {
            yielding(f);
        }
    }

    /**
     * A scheduling point of a simulated run ({@link dev.weft.csp.spi.Extensions#simulated}): the fiber yields if the simulation
     * draws so. Channel operations call it behind {@link Simulation#anyCreated()} (a program on real time pays
     * one static read for it), selections when their fiber's pool is simulated.
     */
    @Pausable
    public static void simulationPoint() {
        // a plain thread is never simulated
    }

    /** Woven form of {@link #simulationPoint()}. */
    public static void simulationPoint(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (!f.isThreadBound()) {
            Simulation s = f.pool().simulation();
            if (s != null && s.preempt()) {
                yielding(f);
            }
        }
    }

    /** Unwinds the fiber to the back of its carrier's queue (see {@link Fiber#YIELDING}). */
    private static void yielding(Fiber f) {
        f.pauseKind = YIELDING;
        f.mode = PAUSING;
    }

    /** The woven forms of {@link Fiber}'s public primitives as {@link dev.weft.csp.abi.HandWoven} (the weaver's ABI) calls them. */
    public static final class Installed extends FiberPrimitives {
        @Override
        public void parkOn(Object blocker, Continuation fiber) {
            FiberPauses.parkOn(blocker, (Fiber) fiber);
        }

        @Override
        public void yield(Continuation fiber) {
            FiberPauses.yield((Fiber) fiber);
        }

        @Override
        public void yieldIfDue(Continuation fiber) {
            FiberPauses.yieldIfDue((Fiber) fiber);
        }

        @Override
        public void yieldIfOthersWait(Continuation fiber) {
            FiberPauses.yieldIfOthersWait((Fiber) fiber);
        }

        @Override
        public Continuation forThread(String pausable) {
            return ThreadMode.forThread(pausable);
        }
    }
}
