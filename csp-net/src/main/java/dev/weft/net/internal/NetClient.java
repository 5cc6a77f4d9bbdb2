package dev.weft.net.internal;

import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Pausable;

/**
 * The client end of a net connection: each transaction uses a lane of its own, so any number of processes
 * may share one client; a client cancelled while it waits drops its lane and with it the late reply.
 */
final class NetClient<Q, R> implements ConnectionClient<Q, R> {
    private final NetOutput<Q> requests;

    NetClient(NetOutput<Q> requests) {
        this.requests = requests;
    }

    @Override
    @Pausable
    @SuppressWarnings("unchecked")
    public R request(Q request) {
        return (R) requests.request(request);
    }

    /** Poisons the connection: the server's input is poisoned, and with it every client's requests. */
    @Override
    public void poison() {
        requests.poison();
    }

    @Override
    public String toString() {
        return "net connection client of " + requests.location();
    }
}
