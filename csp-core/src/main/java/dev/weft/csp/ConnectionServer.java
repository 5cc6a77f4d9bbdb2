package dev.weft.csp;

/**
 * The server end of a connection: {@link #accept()} a request, then {@link #reply(Object)} to it. As a guard
 * of an {@link Alternative} it is ready when a request is waiting.
 */
public interface ConnectionServer<Q, R> extends Guard {
    /** Waits for the next request. */
    @Pausable
    Q accept();

    /** Replies to the request accepted last, ending the transaction. */
    @Pausable
    void reply(R reply);

    /**
     * Poisons the connection: every client's waiting and later requests, and this server's later
     * {@code accept}s and {@code reply}s, throw {@link PoisonException}.
     */
    void poison();
}
