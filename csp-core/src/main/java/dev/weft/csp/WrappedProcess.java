package dev.weft.csp;

/**
 * A process that Weft runs on behalf of a user's process or computation (a branch of {@link Parallel}, the
 * body of a {@link Task}): dumps and reports name the fiber after what it wraps, not after Weft's code. A
 * wrapped lambda is named after the method it is written in once its fiber has paused (its frames tell), and
 * keeps that name.
 */
abstract class WrappedProcess implements CSProcess {
    /** The name found from the fiber's frames, once found; see {@link Fiber#processName()}. */
    volatile String name;

    /** The user's process or computation. */
    abstract Object wrapped();
}
