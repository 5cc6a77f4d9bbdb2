package dev.weft.net;

import dev.weft.csp.PoisonException;

/**
 * The link that a net channel end used is gone (its peer was killed or closed, the socket was reset,
 * heartbeats stopped, a frame was refused), or could not be made (unreachable, wrong secret, TLS failure).
 * The end is poisoned for good: every blocked and later read or write throws this.
 */
public class LinkLostException extends PoisonException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code message} says which link and why. */
    public LinkLostException(String message) {
        super(message);
    }
}
