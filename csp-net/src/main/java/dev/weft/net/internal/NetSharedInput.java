package dev.weft.net.internal;

import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetSharedChannelInput;

/**
 * A net input that any number of local processes read ({@code net2any}); a guard, as every net input. It does
 * not move: its readers all live on this node.
 */
final class NetSharedInput<T> extends NetInput<T> implements NetSharedChannelInput<T> {
    NetSharedInput(Endpoints endpoints, NetChannelLocation location) {
        this(endpoints, location, Channel.any2any(ChannelBuffer.unbounded()));
    }

    private NetSharedInput(Endpoints endpoints, NetChannelLocation location, Any2AnyChannel<Envelope> local) {
        super(endpoints, location, location.id(), 0, 0, local.in(), local.out());
    }
}
