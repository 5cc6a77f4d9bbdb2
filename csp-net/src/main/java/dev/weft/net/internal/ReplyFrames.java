package dev.weft.net.internal;

import dev.weft.net.Codec;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;

/**
 * Connections: a connection server's reply ({@link Protocol#REPLY}) to the lane of the client transaction that
 * waits for it. A reply that no transaction waits for, or that this node's codec refuses, refuses the link.
 */
final class ReplyFrames {
    private final Endpoints endpoints;
    private final Codec codec;

    ReplyFrames(Endpoints endpoints, Codec codec) {
        this.endpoints = endpoints;
        this.codec = codec;
    }

    void routeOn(FrameRoutes routes) {
        routes.on(Protocol.REPLY, this::reply);
    }

    private void reply(Link link, long laneId, long unused, byte[] payload) {
        Lane lane = endpoints.lane(laneId);
        if (lane == null) {
            return; // its client was cancelled
        }
        Object value;
        try {
            value = codec.decode(payload);
        } catch (RuntimeException e) {
            link.refuse("a reply that this node's codec refuses: " + e.getMessage());
            return;
        }
        if (!lane.replied(value)) {
            link.refuse("a connection server on " + link.peer() + " replied to no request");
        }
    }
}
