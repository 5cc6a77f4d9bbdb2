package dev.weft.csp;

/** The client end of a connection: one request, one reply, per transaction. */
public interface ConnectionClient<Q, R> {
    /** Sends {@code request} and waits for the server's reply. */
    @Pausable
    R request(Q request);

    /**
     * Poisons the connection: the server's waiting and later {@code accept}s and {@code reply}s, and every
     * client's waiting and later requests, throw {@link PoisonException}; a client and its server stop without
     * a channel of their own for it.
     */
    void poison();
}
