package dev.weft.net.internal;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;

/**
 * A net input with one reader ({@code net2one}); a guard, as every net input. It can move to another node:
 * written to a net channel, it leaves this node and lives on where that channel is read (see {@link Forwarder}).
 */
final class NetAltingInput<T> extends NetInput<T> implements NetChannelInput<T> {
    /** A new input, named on this node by its location's id. */
    NetAltingInput(Endpoints endpoints, NetChannelLocation location, int capacity) {
        this(endpoints, location, location.id(), capacity, 0);
    }

    /** An input at {@code location} that has come here after {@code moves} moves, named {@code localId} here. */
    NetAltingInput(Endpoints endpoints, NetChannelLocation location, long localId, int capacity, long moves) {
        this(endpoints, location, localId, capacity, moves, Channel.any2one(ChannelBuffer.unbounded()));
    }

    private NetAltingInput(Endpoints endpoints, NetChannelLocation location, long localId, int capacity, long moves,
                           Any2OneChannel<Envelope> local) {
        super(endpoints, location, localId, capacity, moves, local.in(), local.out());
    }
}
