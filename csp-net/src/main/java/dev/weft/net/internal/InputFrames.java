package dev.weft.net.internal;

import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;

/**
 * Frames from writers to this node's inputs at their first home: a value ({@link Protocol#DATA}), a cancelled
 * writer's withdrawal, poison and close. An input that is not here answers its writer's lane that it does not
 * exist.
 */
final class InputFrames {
    private final Endpoints endpoints;

    InputFrames(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    void routeOn(FrameRoutes routes) {
        routes.on(Protocol.DATA, this::data);
        routes.on(Protocol.WITHDRAW, this::withdraw);
        routes.on(Protocol.POISON_INPUT, this::poison);
        routes.on(Protocol.CLOSE_INPUT, this::close);
    }

    private void data(Link link, Frame f) {
        arrive(endpoints, link, f, Protocol.VALUE);
    }

    /**
     * A value ({@link Protocol#VALUE}) or a moving input ({@link Protocol#MOVING_END}) straight from its writer to
     * an input at its first home; a writer whose input is not here hears so.
     */
    static void arrive(Endpoints endpoints, Link link, Frame f, byte kind) {
        NetInput<?> in = endpoints.input(f.channel());
        if (in == null) {
            link.send(new Frame(Protocol.POISON_LANE, f.number(), Protocol.NO_SUCH_INPUT));
            return;
        }
        in.arrivals.arrived(link, f.number(), 0, kind, f.payload(), link);
    }

    private void withdraw(Link link, Frame f) {
        NetInput<?> in = endpoints.input(f.channel());
        if (in != null) {
            in.arrivals.withdraw(link, f.number(), f.payload().length == Long.BYTES ? Lane.seqOf(f.payload()) : 0);
        }
    }

    private void poison(Link link, Frame f) {
        NetInput<?> in = endpoints.input(f.channel());
        if (in != null) {
            in.poisonedBy(link);
        }
    }

    private void close(Link link, Frame f) {
        NetInput<?> in = endpoints.input(f.channel());
        if (in != null) {
            in.closedBy(link);
        }
    }
}
