package dev.weft.net.launch;

/** A launched program failed: a node died, was lost, failed its part, or did not join; the message says which. */
public class LaunchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code message} names the node and what happened. */
    public LaunchException(String message, Throwable cause) {
        super(message, cause);
    }
}
