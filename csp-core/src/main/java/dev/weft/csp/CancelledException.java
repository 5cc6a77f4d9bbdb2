package dev.weft.csp;

/**
 * Thrown by a pausable operation of a fiber that was cancelled ({@link Fiber#cancel()}, a failing sibling in
 * {@link Parallel}, a failing main process of {@link Weft#run}), or of a plain thread that was interrupted.
 *
 * <p>Cancellation is sticky: once a fiber is cancelled, its current pause and every later one throw this
 * (its {@code finally} blocks run as it unwinds). A plain thread keeps its interrupt status set, so its later
 * operations throw it too until it clears the status. An operation that throws it left every primitive as if
 * it had never been called: a cancelled write delivered nothing, a cancelled read took nothing, a cancelled
 * {@link Barrier#sync()} withdrew its arrival.
 */
public class CancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message saying what was cancelled. */
    public CancelledException(String message) {
        super(message);
    }
}
