package dev.weft.csp.internal;

import dev.weft.csp.CancelledException;
import dev.weft.csp.Fiber;
import dev.weft.csp.runtime.WorkerPool;

/**
 * What the API package's classes (an alternative, a barrier, a timer...) ask of a fiber beyond its public methods:
 * {@link FiberState}'s protected members, which only {@code Fiber} itself and this package reach. Static one-line
 * forwards, which the JIT inlines.
 */
public final class FiberAccess {
    private FiberAccess() {
    }

    /** See {@link FiberState#cancelPending()}. */
    public static boolean cancelPending(Fiber f) {
        return f.cancelPending();
    }

    /** See {@link FiberState#cancelledError()}. */
    public static CancelledException cancelledError(Fiber f) {
        return f.cancelledError();
    }

    /** See {@link FiberState#isThreadBound()}. */
    public static boolean isThreadBound(Fiber f) {
        return f.isThreadBound();
    }

    /** See {@link FiberState#pool()}. */
    public static WorkerPool pool(Fiber f) {
        return f.pool();
    }

    /** See {@link FiberState#nanoTime()}. */
    public static long nanoTime(Fiber f) {
        return f.nanoTime();
    }

    /** See {@link FiberState#unparkReserved()}. */
    public static void unparkReserved(Fiber f) {
        f.unparkReserved();
    }

    /** See {@link FiberState#unparkPolled()}. */
    public static void unparkPolled(Fiber f) {
        f.unparkPolled();
    }

    /** See {@link FiberState#runningFiber()}. */
    public static Fiber runningFiber() {
        return FiberState.runningFiber();
    }

    /** The fiber's {@link FiberState#transfer}. */
    public static Object transfer(Fiber f) {
        return f.transfer;
    }

    /** Sets the fiber's {@link FiberState#transfer}. */
    public static void transfer(Fiber f, Object value) {
        f.transfer = value;
    }

    /** Sets the fiber's {@link FiberState#committed}. */
    public static void committed(Fiber f, boolean committed) {
        f.committed = committed;
    }
}
