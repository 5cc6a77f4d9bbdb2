package dev.weft.csp;

/** The client end of a connection: one request, one reply, per transaction. */
public interface ConnectionClient<Q, R> {
    /** Sends {@code request} and waits for the server's reply. */
    @Pausable
    R request(Q request);
}
