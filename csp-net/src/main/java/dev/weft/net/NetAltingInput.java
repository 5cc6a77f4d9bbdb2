package dev.weft.net;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.ForwardingGuard;
import dev.weft.csp.Guard;

/** A net input with one reader ({@code net2one}): a guard, ready when its local channel holds a value. */
final class NetAltingInput<T> extends NetInput<T> implements NetChannelInput<T>, ForwardingGuard {
    private final Any2OneChannel<Envelope> local;

    NetAltingInput(Endpoints endpoints, NetChannelLocation location, int capacity) {
        this(endpoints, location, capacity, Channel.any2one(ChannelBuffer.unbounded()));
    }

    private NetAltingInput(Endpoints endpoints, NetChannelLocation location, int capacity,
                           Any2OneChannel<Envelope> local) {
        super(endpoints, location, capacity, local.in(), local.out());
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
