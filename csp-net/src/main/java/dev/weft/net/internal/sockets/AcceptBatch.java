package dev.weft.net.internal.sockets;

import io.netty.channel.ChannelConfig;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * How many connections a listening socket takes per read: up to {@value #PER_READ}, until the backlog is empty.
 * Netty's own handle stops after one connection when auto-read is off (as a {@code TcpServer}'s is, so that
 * connections are taken only when someone accepts), which costs a whole poll round per connection: under load a
 * backlog of a thousand connections then waits seconds, their first requests with them. A scheduler runs every
 * fiber that is ready before the accepting one runs again, so the batch is large.
 */
public final class AcceptBatch extends DefaultMaxMessagesRecvByteBufAllocator {
    static final int PER_READ = 128;

    public AcceptBatch() {
        super(PER_READ);
    }

    @Override
    public Handle newHandle() {
        return new MaxMessageHandle() {
            private int taken;

            @Override
            public void reset(ChannelConfig config) {
                taken = 0;
                super.reset(config);
            }

            /** Asked once after each connection taken (an empty backlog ends the read before), auto-read or not. */
            @Override
            public boolean continueReading() {
                return ++taken < maxMessagesPerRead();
            }

            @Override
            public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
                return continueReading();
            }

            @Override
            public int guess() {
                return 128; // no buffer is allocated to accept
            }
        };
    }
}
