package dev.weft.net;

/** A name was not registered at the name server within the time given to resolve it. */
public class NameNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code message} names the name and the wait. */
    public NameNotFoundException(String message) {
        super(message);
    }
}
