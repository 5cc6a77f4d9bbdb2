package dev.weft.csp;

/**
 * The end of a closed channel: thrown by a read once every value written before {@link ChannelOutput#close()}
 * has been read, and by a write after the close. It extends {@link PoisonException}, so a process written to
 * stop on poison stops at the end of a closed channel too; {@link ChannelInput#forEach} ends without it.
 */
public class ChannelClosedException extends PoisonException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message saying what was closed. */
    public ChannelClosedException(String message) {
        super(message);
    }
}
