package dev.weft.net.internal;

import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Pausable;
import dev.weft.net.Codec;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.NetConnectionServer;
import dev.weft.net.NetSharedChannelInput;
import dev.weft.net.NetSharedChannelOutput;
import dev.weft.net.NodeAddress;
import dev.weft.net.transport.LinkListener;
import dev.weft.net.transport.Transport;
import java.time.Duration;

/**
 * The one door from the public API ({@link dev.weft.net.Node}) into the channel layer: a node's net ends,
 * connections and names, made here and failed here when the node closes. Everything else in this package is
 * package-private; checks of the node's own state (closed?) stay in {@code Node}.
 */
public final class NodeEnds {
    private final Endpoints endpoints;

    /**
     * The channel layer of a node whose values {@code codec} copies; with names if it serves them
     * ({@code serveNames}) or uses the name server at {@code nameServer} (else null). Its transport starts next,
     * with {@link #listener()}, and is given with {@link #start}.
     */
    public NodeEnds(Codec codec, boolean serveNames, NodeAddress nameServer) {
        endpoints = new Endpoints(codec, serveNames, nameServer);
    }

    /** What hears the transport's frames and lost links. */
    public LinkListener listener() {
        return endpoints;
    }

    /** The node's transport has started: ends can be made. */
    public void start(Transport transport) {
        endpoints.start(transport);
    }

    /** A net input read on this node: synchronous ({@code capacity} 0) or buffered. */
    public <T> NetChannelInput<T> net2one(int capacity) {
        return endpoints.newInput(capacity);
    }

    /** A synchronous net input that any number of local processes may read. */
    public <T> NetSharedChannelInput<T> net2any() {
        return endpoints.newSharedInput();
    }

    /** An output to the net input at {@code at}. */
    public <T> NetChannelOutput<T> one2net(NetChannelLocation at) {
        return endpoints.newOutput(at);
    }

    /** An output to the net input at {@code at} that any number of local processes may write to. */
    public <T> NetSharedChannelOutput<T> any2net(NetChannelLocation at) {
        return endpoints.newOutput(at);
    }

    /**
     * A synchronous net input registered under {@code name}, waiting up to {@code wait} for the name server's
     * answer (see {@link NameService#register}).
     */
    @Pausable
    public <T> NetChannelInput<T> net2one(String name, Duration wait) {
        NetAltingInput<T> in = endpoints.newInput(0);
        register(name, in, wait);
        return in;
    }

    /** The location registered under {@code name}, waiting up to {@code max} (see {@link NameService#resolve}). */
    @Pausable
    public NetChannelLocation resolve(String name, Duration max) {
        return names().resolve(name, max);
    }

    /** The server end of a connection. */
    public <Q, R> NetConnectionServer<Q, R> connectionServer() {
        return new NetServer<>(endpoints, endpoints.newInput(0));
    }

    /** The server end of a connection registered under {@code name} (as {@link #net2one(String, Duration)}). */
    @Pausable
    public <Q, R> NetConnectionServer<Q, R> connectionServer(String name, Duration wait) {
        NetAltingInput<Q> requests = endpoints.newInput(0);
        register(name, requests, wait);
        return new NetServer<>(endpoints, requests);
    }

    /** A client of the connection server at {@code at}. */
    public <Q, R> ConnectionClient<Q, R> connectionClient(NetChannelLocation at) {
        return new NetClient<>(endpoints.<Q>newOutput(at));
    }

    /** The node closes: its names are dropped and every end fails with {@code why}. */
    public void close(RuntimeException why) {
        NameService names = endpoints.names();
        if (names != null) {
            names.close();
        }
        endpoints.failAll(why);
    }

    @Pausable
    private void register(String name, NetInput<?> in, Duration wait) {
        try {
            names().register(name, in.location(), wait);
        } catch (RuntimeException e) {
            endpoints.forget(in);
            throw e;
        }
    }

    private NameService names() {
        NameService names = endpoints.names();
        if (names == null) {
            throw new IllegalStateException("this node has no name server: give Node.Builder.nameServer(address),"
                    + " or serveNames()");
        }
        return names;
    }
}
