package dev.weft.csp.runtime;

import dev.weft.csp.abi.Continuation;

/**
 * The fibers' hand-woven primitives as {@code dev.weft.csp.abi.HandWoven} reaches them: implemented beside the
 * fiber, whose state they change, and installed by it as its class initialises. An indirection for the compiler
 * only: {@code HandWoven} keeps the instance in a static final field, so the JIT calls the one implementation
 * directly.
 */
public abstract class FiberPrimitives {
    private static volatile FiberPrimitives installed;

    /** For the fiber's class alone. */
    protected FiberPrimitives() {
    }

    /**
     * Installs the implementation, once.
     *
     * @throws IllegalStateException if one is installed already
     */
    public static synchronized void install(FiberPrimitives primitives) {
        if (installed != null) {
            throw new IllegalStateException("the fiber primitives are installed already");
        }
        installed = primitives;
    }

    /** The installed implementation, null before the fiber's class has initialised. */
    public static FiberPrimitives installed() {
        return installed;
    }

    /** Woven form of {@code Fiber.parkOn(blocker)} (and of {@code park()}, with a null blocker). */
    public abstract void parkOn(Object blocker, Continuation fiber);

    /** Woven form of {@code Fiber.yield()}. */
    public abstract void yield(Continuation fiber);

    /** Woven form of {@code Fiber.yieldIfDue()}. */
    public abstract void yieldIfDue(Continuation fiber);

    /** Woven form of {@code Fiber.yieldIfOthersWait()}. */
    public abstract void yieldIfOthersWait(Continuation fiber);

    /** The fiber of the calling plain thread, for a thread-mode bridge calling {@code pausable} (or null). */
    public abstract Continuation forThread(String pausable);
}
