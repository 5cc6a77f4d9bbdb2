package dev.weft.net.internal;

import dev.weft.net.NetChannelLocation;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;

/**
 * Mobile inputs (see {@link Protocol}): an input moving here ({@link Protocol#END}), values for an input that
 * moved ({@link Protocol#DIRECT} from its writer, {@link Protocol#FORWARD} by way of an old home), and where a
 * moved input lives now ({@link Protocol#REDIRECT} to a writer, {@link Protocol#HOME} to an old home). A
 * malformed frame refuses the link.
 */
final class MoveFrames {
    private final Endpoints endpoints;

    MoveFrames(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    void routeOn(FrameRoutes routes) {
        routes.onFrame(Protocol.END, this::end);
        routes.onFrame(Protocol.DIRECT, this::parcel);
        routes.onFrame(Protocol.FORWARD, this::parcel);
        routes.onFrame(Protocol.REDIRECT, this::redirect);
        routes.onFrame(Protocol.HOME, this::homeIs);
    }

    /** As {@link Protocol#DATA}, a moving input's image. */
    private void end(Link link, Frame f) {
        InputFrames.arrive(endpoints, link, f.channel(), f.number(), f.payload(), Protocol.MOVING_END);
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
            writer = p.writer() == null ? link : endpoints.link(p.writer());
        } catch (RuntimeException closing) {
            return; // this node is closed
        }
        NetInput<?> in = endpoints.input(f.channel());
        if (in == null) {
            writer.send(new Frame(Protocol.POISON_LANE, f.number(), Protocol.NO_SUCH_INPUT));
        } else if (p.kind() == Protocol.WITHDRAWAL) {
            in.arrivals.withdraw(writer, f.number(), p.seq());
        } else {
            in.arrivals.arrived(writer, f.number(), p.seq(), p.kind(), p.body(), link);
        }
    }

    private void redirect(Link link, Frame f) {
        Lane lane = endpoints.lane(f.channel());
        NetChannelLocation home = readHome(link, f);
        if (lane != null && home != null) {
            lane.owner().redirect(f.number(), home);
        }
    }

    private void homeIs(Link link, Frame f) {
        NetInput<?> in = endpoints.input(f.channel());
        NetChannelLocation home = readHome(link, f);
        if (in != null && home != null) {
            in.move.homeIs(f.number(), home);
        }
    }

    /** Where a {@link Protocol#REDIRECT} or {@link Protocol#HOME} says an input is; null if malformed (refused). */
    private static NetChannelLocation readHome(Link link, Frame f) {
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
}
