package dev.weft.net.internal;

import dev.weft.net.Codec;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import dev.weft.net.transport.LinkListener;
import dev.weft.net.transport.Transport;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's net ends, by the ids the wire names them with, and the links each has used. It hears every frame
 * of the channel layer and every lost link, on the event loops: a frame goes to the handler of its type
 * ({@link FrameRoutes}), which finds the end concerned; a lost link fails the ends that used it.
 */
final class Endpoints implements LinkListener {
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, NetInput<?>> inputs = new ConcurrentHashMap<>();
    private final Map<Long, Lane> lanes = new ConcurrentHashMap<>();
    private final Map<Link, Set<LinkUser>> users = new ConcurrentHashMap<>();
    private final Codec codec;
    /** Filled here, before the transport starts: the event loop reads it without a lock. */
    private final FrameRoutes routes = new FrameRoutes();
    /** The node's names, or null if it has no name server. */
    private final NameService names;
    private volatile Transport transport;
    private volatile RuntimeException closed; // why this node's ends are poisoned, once it closes

    /**
     * The ends of a node whose values {@code codec} copies; with names if it serves them ({@code serveNames}) or
     * uses the name server at {@code nameServer} (else null).
     */
    Endpoints(Codec codec, boolean serveNames, NodeAddress nameServer) {
        this.codec = codec;
        new InputFrames(this).routeOn(routes);
        new CreditFrames(this, codec).routeOn(routes);
        new ReplyFrames(this, codec).routeOn(routes);
        new MoveFrames(this).routeOn(routes);
        names = serveNames || nameServer != null ? new NameService(this, serveNames, nameServer) : null;
        if (names != null) {
            names.routeOn(routes);
        }
    }

    /** The transport has started: ends can be made. */
    void start(Transport transport) {
        this.transport = transport;
    }

    /** The node's names, or null if it has no name server. */
    NameService names() {
        return names;
    }

    /** The input named {@code id} on this node, or null. */
    NetInput<?> input(long id) {
        return inputs.get(id);
    }

    /** The lane named {@code id} on this node, or null. */
    Lane lane(long id) {
        return lanes.get(id);
    }

    NodeAddress address() {
        return transport.address();
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    /**
     * The link to {@code peer}, made if need be.
     *
     * @throws dev.weft.csp.PoisonException if this node is closed: its ends are poisoned
     */
    Link link(NodeAddress peer) {
        RuntimeException e = closed;
        if (e != null) {
            throw Failures.fresh(e);
        }
        return transport.link(peer);
    }

    byte[] encode(Object value) {
        return codec.encode(value);
    }

    Object decode(byte[] bytes) {
        return codec.decode(bytes);
    }

    <T> NetAltingInput<T> newInput(int capacity) {
        NetAltingInput<T> in = new NetAltingInput<>(this, new NetChannelLocation(address(), nextId()), capacity);
        inputs.put(in.localId, in);
        return in;
    }

    <T> NetSharedInput<T> newSharedInput() {
        NetSharedInput<T> in = new NetSharedInput<>(this, new NetChannelLocation(address(), nextId()));
        inputs.put(in.localId, in);
        return in;
    }

    <T> NetOutput<T> newOutput(NetChannelLocation target) {
        return new NetOutput<>(this, target);
    }

    /** Drops an input that will not be used (its name could not be registered). */
    void forget(NetInput<?> in) {
        inputs.remove(in.localId);
    }

    /** Names here an input that moved to this node (see {@link InputMove#adopt}). */
    void adopted(NetInput<?> in) {
        inputs.put(in.localId, in);
    }

    Lane newLane(NetOutput<?> owner) {
        Lane lane = new Lane(nextId(), owner);
        lanes.put(lane.id, lane);
        return lane;
    }

    void forget(Lane lane) {
        lanes.remove(lane.id);
    }

    /** Records that {@code user} uses {@code link}, so that it fails when the link is lost. */
    void uses(Link link, LinkUser user) {
        users.computeIfAbsent(link, l -> ConcurrentHashMap.newKeySet()).add(user);
        if (link.isLost()) {
            lost(link, link.whyLost()); // lost before the user was recorded
        }
    }

    /** Every end of this node, failed with {@code e} (the node closes). */
    void failAll(RuntimeException e) {
        closed = e;
        for (NetInput<?> in : inputs.values()) {
            in.close(e);
        }
        for (Set<LinkUser> s : users.values()) {
            for (LinkUser u : s) {
                if (u instanceof NetOutput) {
                    ((NetOutput<?>) u).fail(e);
                }
            }
        }
    }

    // ---------------------------------------------------------------------- LinkListener, on event loops

    /** Hands a frame to the handler of its type (see {@link FrameRoutes}). */
    @Override
    public void received(Link link, byte type, long channel, long number, byte[] payload) {
        routes.route(link, type, channel, number, payload);
    }

    @Override
    public void lost(Link link, String why) {
        Set<LinkUser> s = users.remove(link);
        if (names != null) {
            names.lost(link, why);
        }
        if (s == null) {
            return;
        }
        boolean peerClosed = link.endedByPeerClosing();
        for (LinkUser u : new ArrayList<>(s)) {
            u.linkLost(link, new LinkLostException(why), peerClosed);
        }
    }
}
