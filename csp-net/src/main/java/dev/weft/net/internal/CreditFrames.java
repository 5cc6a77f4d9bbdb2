package dev.weft.net.internal;

import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.PoisonException;
import dev.weft.net.Codec;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.codec.KryoCodec;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;

/**
 * Flow control: the answers an input sends the lanes of its writers on this node. A synchronous value was read
 * ({@link Protocol#ACK}) or withdrawn ({@link Protocol#WITHDRAWN}); a buffered input says so
 * ({@link Protocol#OPENED}) and gives credit back ({@link Protocol#CREDIT}); or it refuses the lane's values
 * ({@link Protocol#POISON_LANE}). An answer that breaks the credit protocol refuses the link.
 */
final class CreditFrames {
    private final Endpoints endpoints;
    private final Codec codec;

    CreditFrames(Endpoints endpoints, Codec codec) {
        this.endpoints = endpoints;
        this.codec = codec;
    }

    void routeOn(FrameRoutes routes) {
        routes.on(Protocol.ACK, this::acknowledged);
        routes.on(Protocol.WITHDRAWN, this::withdrawn);
        routes.on(Protocol.OPENED, this::opened);
        routes.on(Protocol.CREDIT, this::credited);
        routes.on(Protocol.POISON_LANE, this::refused);
    }

    private void acknowledged(Link link, long laneId, long number, byte[] payload) {
        Lane lane = endpoints.lane(laneId);
        if (lane != null) {
            lane.acknowledged();
        }
    }

    private void withdrawn(Link link, long laneId, long number, byte[] payload) {
        Lane lane = endpoints.lane(laneId);
        if (lane != null) {
            lane.withdrawn();
        }
    }

    private void opened(Link link, long laneId, long number, byte[] payload) {
        Lane lane = endpoints.lane(laneId);
        if (lane != null && !lane.opened(number)) {
            link.refuse("an input on " + link.peer() + " said twice, or wrongly, that it is buffered");
        }
    }

    private void credited(Link link, long laneId, long number, byte[] payload) {
        Lane lane = endpoints.lane(laneId);
        if (lane != null && !lane.credited(number)) {
            link.refuse("an input on " + link.peer() + " gave more credit than its capacity");
        }
    }

    private void refused(Link link, long laneId, long number, byte[] payload) {
        Lane lane = endpoints.lane(laneId);
        if (lane != null) {
            lane.owner().fail(laneRefusal(number, lane.owner().location(), payload));
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
}
