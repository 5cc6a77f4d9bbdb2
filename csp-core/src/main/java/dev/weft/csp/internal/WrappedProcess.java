package dev.weft.csp.internal;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Task;

/**
 * A process that Weft runs on behalf of a user's computation (the body of a {@link Task}): dumps and reports
 * name the fiber after what it wraps, not after Weft's code (see {@link ProcessNames}).
 */
public abstract class WrappedProcess implements CSProcess {
    /** The user's process or computation. */
    protected abstract Object wrapped();
}
