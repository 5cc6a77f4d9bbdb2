package dev.weft.net;

import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.ForwardingGuard;
import dev.weft.csp.Guard;

/**
 * A net input that any number of local processes read ({@code net2any}): a guard, ready when its local channel
 * holds a value.
 */
final class NetSharedInput<T> extends NetInput<T> implements NetSharedChannelInput<T>, ForwardingGuard {
    private final Any2AnyChannel<Envelope> local;

    NetSharedInput(Endpoints endpoints, NetChannelLocation location) {
        this(endpoints, location, Channel.any2any(ChannelBuffer.unbounded()));
    }

    private NetSharedInput(Endpoints endpoints, NetChannelLocation location, Any2AnyChannel<Envelope> local) {
        super(endpoints, location, 0, local.in(), local.out());
        this.local = local;
    }

    @Override
    public boolean pending() {
        return local.in().pending();
    }

    @Override
    public Guard guard() {
        return local.in();
    }
}
