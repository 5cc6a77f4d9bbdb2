package dev.weft.csp;

/**
 * A process that Weft runs on behalf of a user's computation (the body of a {@link Task}): dumps and reports
 * name the fiber after what it wraps, not after Weft's code (see {@link ProcessNames}).
 */
abstract class WrappedProcess implements CSProcess {
    /** The user's process or computation. */
    abstract Object wrapped();
}
