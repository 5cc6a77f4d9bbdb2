package dev.weft.net;

import dev.weft.csp.ConnectionServer;

/**
 * The server end of a connection over the network; any number of clients on any nodes reach it with
 * {@link Node#connectionClient}. As a guard it is ready when a request is waiting.
 */
public interface NetConnectionServer<Q, R> extends ConnectionServer<Q, R> {
    /** The location clients connect to. */
    NetChannelLocation location();
}
