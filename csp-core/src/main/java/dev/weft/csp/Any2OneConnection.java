package dev.weft.csp;

/** A connection between any number of clients and one server; clients are served one transaction at a time. */
public interface Any2OneConnection<Q, R> {
    /** The client end, shared by every client. */
    ConnectionClient<Q, R> client();

    /** The server end. */
    ConnectionServer<Q, R> server();
}
