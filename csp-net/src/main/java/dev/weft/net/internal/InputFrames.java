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

    private void data(Link link, long input, long lane, byte[] value) {
        arrive(endpoints, link, input, lane, value, Protocol.VALUE);
    }

    /**
     * A value ({@link Protocol#VALUE}) or a moving input ({@link Protocol#MOVING_END}) straight from its writer to
     * an input at its first home ({@code input}), from {@code lane}; a writer whose input is not here hears so.
     */
    static void arrive(Endpoints endpoints, Link link, long input, long lane, byte[] body, byte kind) {
        NetInput<?> in = endpoints.input(input);
        if (in == null) {
            link.send(new Frame(Protocol.POISON_LANE, lane, Protocol.NO_SUCH_INPUT));
            return;
        }
        in.arrivals.arrived(link, lane, 0, kind, body, link);
    }

    private void withdraw(Link link, long input, long lane, byte[] seq) {
        NetInput<?> in = endpoints.input(input);
        if (in != null) {
            in.arrivals.withdraw(link, lane, seq.length == Long.BYTES ? Lane.seqOf(seq) : 0);
        }
    }

    private void poison(Link link, long input, long unused, byte[] none) {
        NetInput<?> in = endpoints.input(input);
        if (in != null) {
            in.poisonedBy(link);
        }
    }

    private void close(Link link, long input, long unused, byte[] none) {
        NetInput<?> in = endpoints.input(input);
        if (in != null) {
            in.closedBy(link);
        }
    }
}
