package dev.weft.csp;

/** A connection between one client and one server. */
public interface One2OneConnection<Q, R> {
    /** The client end. */
    ConnectionClient<Q, R> client();

    /** The server end. */
    ConnectionServer<Q, R> server();
}
