package dev.weft.net.internal;

import dev.weft.csp.ForwardingGuard;
import dev.weft.csp.Guard;
import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetConnectionServer;
import dev.weft.net.transport.Frame;

/**
 * The server end of a net connection: requests arrive on a synchronous net input (so a client's request
 * returns from its write once accepted), and the reply goes straight back to the lane the request came from.
 */
final class NetServer<Q, R> implements NetConnectionServer<Q, R>, ForwardingGuard {
    private final NetAltingInput<Q> requests;
    private final Endpoints endpoints;
    private RemoteWriter client; // of the request accepted last, until the reply

    NetServer(Endpoints endpoints, NetAltingInput<Q> requests) {
        this.endpoints = endpoints;
        this.requests = requests;
    }

    @Override
    @Pausable
    @SuppressWarnings("unchecked")
    public Q accept() {
        if (client != null) {
            throw new IllegalStateException("accept() again before reply() to the request accepted last");
        }
        Envelope e = requests.take();
        client = e.writer;
        return (Q) e.value;
    }

    @Override
    @Pausable
    public void reply(R reply) {
        if (reply == null) {
            throw new NullPointerException("cannot reply null");
        }
        RemoteWriter c = client;
        if (c == null) {
            throw new IllegalStateException("reply() without a request accepted");
        }
        byte[] bytes = endpoints.encode(reply);
        client = null;
        c.link.send(new Frame(Protocol.REPLY, c.lane, 0, bytes));
    }

    /** Poisons the connection: this server's input, and with it every client's waiting and later requests. */
    @Override
    public void poison() {
        requests.poison();
    }

    @Override
    public NetChannelLocation location() {
        return requests.location();
    }

    @Override
    public Guard guard() {
        return requests.guard();
    }

    @Override
    public String toString() {
        return "net connection server " + location();
    }
}
