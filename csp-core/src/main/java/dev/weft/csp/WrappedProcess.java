package dev.weft.csp;

/**
 * A process that Weft runs on behalf of a user's process or computation (a branch of {@link Parallel}, the
 * body of a {@link Task}): dumps and reports name the fiber after what it wraps, not after Weft's code.
 */
interface WrappedProcess extends CSProcess {
    /** The user's process or computation. */
    Object wrapped();
}
