package dev.weft.net;

import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.PoisonException;
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
 * A node's net ends, by the ids the wire names them with, and the links each has used; it hears every frame
 * of the channel layer and every lost link, on the event loops, and hands them to the end concerned.
 */
final class Endpoints implements LinkListener {
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, NetInput<?>> inputs = new ConcurrentHashMap<>();
    private final Map<Long, Lane> lanes = new ConcurrentHashMap<>();
    private final Map<Link, Set<LinkUser>> users = new ConcurrentHashMap<>();
    private final Codec codec;
    private volatile Transport transport;
    private volatile NameService names;
    private volatile RuntimeException closed; // why this node's ends are poisoned, once it closes

    Endpoints(Codec codec) {
        this.codec = codec;
    }

    void start(Transport transport, NameService names) {
        this.transport = transport;
        this.names = names;
    }

    NodeAddress address() {
        return transport.address();
    }

    /**
     * Blocks the caller until {@code answer} completes or {@code nanos} pass; true if it completed. A carrier drives
     * the node's loop meanwhile if the node is on the carriers (see {@link Transport#await}).
     */
    boolean await(java.util.concurrent.CompletableFuture<?> answer, long nanos) throws InterruptedException {
        if (transport.onCarriers()) {
            return transport.await(answer::isDone, nanos);
        }
        try {
            answer.get(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            // completed: the caller takes the failure from the answer
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        }
        return true;
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

    /**
     * Brings to life here the input that {@code image} describes, moved from another node (or from this one):
     * it gets a name on this node, and the nodes it left and first lived on hear where it is now (they forward
     * to it and redirect its writers). Its writers' links are made if need be; it watches the links to those
     * nodes, since values it waits for may be on their way from there.
     *
     * @throws IllegalArgumentException if the image is malformed or this node's codec refuses one of its values
     */
    NetAltingInput<?> adopt(byte[] image) {
        EndImage e = EndImage.decode(image);
        NetAltingInput<?> in = new NetAltingInput<>(this, e.location(), nextId(), e.capacity(), e.moves());
        in.restore(e);
        inputs.put(in.localId, in);
        byte[] here = Parcel.home(address(), in.localId);
        Link left = link(e.left().node());
        left.send(new Frame(Protocol.HOME, e.left().id(), e.moves(), here));
        uses(left, in);
        if (!e.left().equals(e.location())) {
            Link origin = link(e.location().node());
            origin.send(new Frame(Protocol.HOME, e.location().id(), e.moves(), here));
            uses(origin, in);
        }
        return in;
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

    @Override
    public void received(Link link, Frame f) {
        switch (f.type()) {
            case Protocol.DATA:
            case Protocol.END: {
                NetInput<?> in = inputs.get(f.channel());
                if (in == null) {
                    link.send(new Frame(Protocol.POISON_LANE, f.number(), Protocol.NO_SUCH_INPUT));
                    return;
                }
                in.arrived(link, f.number(), 0, f.type() == Protocol.DATA ? Protocol.VALUE : Protocol.MOVING_END,
                        f.payload(), link);
                return;
            }
            case Protocol.DIRECT:
            case Protocol.FORWARD:
                parcel(link, f);
                return;
            case Protocol.REDIRECT: {
                Lane lane = lanes.get(f.channel());
                NetChannelLocation home = home(link, f);
                if (lane != null && home != null) {
                    lane.owner().redirect(f.number(), home);
                }
                return;
            }
            case Protocol.HOME: {
                NetInput<?> in = inputs.get(f.channel());
                NetChannelLocation home = home(link, f);
                if (in != null && home != null) {
                    in.homeIs(f.number(), home);
                }
                return;
            }
            case Protocol.ACK: {
                Lane lane = lanes.get(f.channel());
                if (lane != null) {
                    lane.acknowledged();
                }
                return;
            }
            case Protocol.WITHDRAWN: {
                Lane lane = lanes.get(f.channel());
                if (lane != null) {
                    lane.withdrawn();
                }
                return;
            }
            case Protocol.OPENED: {
                Lane lane = lanes.get(f.channel());
                if (lane != null && !lane.opened(f.number())) {
                    link.refuse("an input on " + link.peer() + " said twice, or wrongly, that it is buffered");
                }
                return;
            }
            case Protocol.CREDIT: {
                Lane lane = lanes.get(f.channel());
                if (lane != null && !lane.credited(f.number())) {
                    link.refuse("an input on " + link.peer() + " gave more credit than its capacity");
                }
                return;
            }
            case Protocol.POISON_INPUT: {
                NetInput<?> in = inputs.get(f.channel());
                if (in != null) {
                    in.poisonedBy(link);
                }
                return;
            }
            case Protocol.CLOSE_INPUT: {
                NetInput<?> in = inputs.get(f.channel());
                if (in != null) {
                    in.closedBy(link);
                }
                return;
            }
            case Protocol.POISON_LANE: {
                Lane lane = lanes.get(f.channel());
                if (lane != null) {
                    lane.owner().fail(laneRefusal(f.number(), lane.owner().location(), f.payload()));
                }
                return;
            }
            case Protocol.WITHDRAW: {
                NetInput<?> in = inputs.get(f.channel());
                if (in != null) {
                    in.withdraw(link, f.number(), f.payload().length == Long.BYTES ? Lane.seqOf(f.payload()) : 0);
                }
                return;
            }
            case Protocol.REPLY: {
                Lane lane = lanes.get(f.channel());
                if (lane == null) {
                    return; // its client was cancelled
                }
                Object value;
                try {
                    value = codec.decode(f.payload());
                } catch (RuntimeException e) {
                    link.refuse("a reply that this node's codec refuses: " + e.getMessage());
                    return;
                }
                if (!lane.replied(value)) {
                    link.refuse("a connection server on " + link.peer() + " replied to no request");
                }
                return;
            }
            default:
                NameService n = names;
                if (n == null || !n.received(link, f)) {
                    link.refuse("unknown frame type " + f.type());
                }
        }
    }

    /**
     * A value, moving input or withdrawal for a moved input: straight from its writer ({@link Protocol#DIRECT})
     * or by way of an old home ({@link Protocol#FORWARD}, which names the writer's node).
     */
    private void parcel(Link link, Frame f) {
        Parcel p;
        try {
            p = Parcel.read(f.payload(), f.type() == Protocol.FORWARD);
        } catch (IllegalArgumentException e) {
            link.refuse("a malformed frame of type " + f.type() + ": " + e.getMessage());
            return;
        }
        Link writer;
        try {
            writer = p.writer() == null ? link : link(p.writer());
        } catch (RuntimeException closing) {
            return; // this node is closed
        }
        NetInput<?> in = inputs.get(f.channel());
        if (in == null) {
            writer.send(new Frame(Protocol.POISON_LANE, f.number(), Protocol.NO_SUCH_INPUT));
        } else if (p.kind() == Protocol.WITHDRAWAL) {
            in.withdraw(writer, f.number(), p.seq());
        } else {
            in.arrived(writer, f.number(), p.seq(), p.kind(), p.body(), link);
        }
    }

    /** Where a {@link Protocol#REDIRECT} or {@link Protocol#HOME} says an input is; null if malformed (refused). */
    private static NetChannelLocation home(Link link, Frame f) {
        try {
            if (f.number() < 1) {
                throw new IllegalArgumentException("move count " + f.number());
            }
            return Parcel.readHome(f.payload());
        } catch (IllegalArgumentException e) {
            link.refuse("a malformed frame of type " + f.type() + ": " + e.getMessage());
            return null;
        }
    }

    /** What a lane's output fails with when the input answers its value with {@link Protocol#POISON_LANE}. */
    private RuntimeException laneRefusal(long why, NetChannelLocation input, byte[] payload) {
        if (why == Protocol.TYPE_NOT_ALLOWED) {
            Integer id = Protocol.wireId(payload);
            String type = id != null && codec instanceof KryoCodec k ? k.typeNamed(id) : null;
            String named = type != null ? type : "a type (wire id " + id + ")";
            return new PoisonException("the node that reads the net channel " + input + " does not allow " + named
                    + ": allow it there too (Node.builder().allow(" + (type != null ? type + ".class" : "...")
                    + ") on the reading node). The channel is poisoned; the link goes on");
        }
        if (why == Protocol.LOST) {
            return new LinkLostException("the net channel " + input + " is out of reach: it moved, and the way to it was lost");
        }
        if (why == Protocol.NO_SUCH_INPUT) {
            return new PoisonException("there is no net input " + input + " (never made, or its node forgot it)");
        }
        if (why == Protocol.CLOSED) {
            return new ChannelClosedException("the net channel " + input + " is closed");
        }
        return new PoisonException("the net channel " + input + " was poisoned");
    }

    @Override
    public void lost(Link link, String why) {
        Set<LinkUser> s = users.remove(link);
        NameService n = names;
        if (n != null) {
            n.lost(link, why);
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
