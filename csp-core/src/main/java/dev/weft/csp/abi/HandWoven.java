package dev.weft.csp.abi;

import dev.weft.csp.Fiber;
import dev.weft.csp.runtime.FiberPrimitives;

/**
 * The woven forms of {@link Fiber}'s pausable primitives, written by hand, and the entry of the weaver's
 * thread-mode bridges: what woven code calls where its source calls {@code Fiber.park()}, {@code parkOn},
 * {@code yield}, {@code yieldIfDue} or {@code yieldIfOthersWait} (the weaver's preemption checks call the last),
 * and what a pausable method's plain form calls to find its thread's fiber. The weaver's ABI, not an API for
 * users: call the primitives on {@link Fiber}.
 */
public final class HandWoven {
    /** Final, so that the JIT calls the one implementation directly. */
    private static final FiberPrimitives FIBERS = primitives();

    private HandWoven() {
    }

    private static FiberPrimitives primitives() {
        try {
            Class.forName(Fiber.class.getName(), true, Fiber.class.getClassLoader()); // it installs them
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
        return FiberPrimitives.installed();
    }

    /** Woven form of {@link Fiber#park()}. */
    public static void park(Fiber f) {
        FIBERS.parkOn(null, f);
    }

    /** Woven form of {@link Fiber#parkOn(Object)}. */
    public static void parkOn(Object blocker, Fiber f) {
        FIBERS.parkOn(blocker, f);
    }

    /** Woven form of {@link Fiber#yield()}. */
    public static void yield(Fiber f) {
        FIBERS.yield(f);
    }

    /** Woven form of {@link Fiber#yieldIfDue()}. */
    public static void yieldIfDue(Fiber f) {
        FIBERS.yieldIfDue(f);
    }

    /** Woven form of {@link Fiber#yieldIfOthersWait()}. */
    public static void yieldIfOthersWait(Fiber f) {
        FIBERS.yieldIfOthersWait(f);
    }

    /** The fiber bound to the calling plain thread, for a thread-mode bridge; refused on a carrier. */
    public static Fiber forThread() {
        return (Fiber) FIBERS.forThread(null);
    }

    /**
     * As {@link #forThread()}, for a bridge that calls {@code pausable} (a method's name) from a method that is
     * not pausable: the refusal on a carrier names it.
     */
    public static Fiber forThread(String pausable) {
        return (Fiber) FIBERS.forThread(pausable);
    }
}
