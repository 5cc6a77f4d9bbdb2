package dev.weft.net;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;

/** A net input with one reader ({@code net2one}); a guard, as every net input. */
final class NetAltingInput<T> extends NetInput<T> implements NetChannelInput<T> {
    NetAltingInput(Endpoints endpoints, NetChannelLocation location, int capacity) {
        this(endpoints, location, capacity, Channel.any2one(ChannelBuffer.unbounded()));
    }

    private NetAltingInput(Endpoints endpoints, NetChannelLocation location, int capacity,
                           Any2OneChannel<Envelope> local) {
        super(endpoints, location, capacity, local.in(), local.out());
    }
}
