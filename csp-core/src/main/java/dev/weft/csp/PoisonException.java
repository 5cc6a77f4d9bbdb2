package dev.weft.csp;

/**
 * Thrown by a read or write on a poisoned channel. Poison is immediate: every blocked and every later
 * read or write on either end throws it.
 */
public class PoisonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message saying what was poisoned. */
    public PoisonException(String message) {
        super(message);
    }
}
