package dev.weft.net.internal.sockets;

import io.netty.channel.ChannelConfig;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.util.NetUtil;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * How many connections a listening socket takes per read: until the backlog is empty, at most as many as it
 * holds ({@link #PER_READ}, the size Netty gives every listening socket's backlog), so that one read drains it
 * once over, as Go's accept loop does. Netty's own handle stops after one connection when auto-read is off (as a
 * {@code TcpServer}'s is, so that connections are taken only when someone accepts), which costs a whole poll
 * round per connection. A scheduler runs every fiber that is ready before the accepting one runs again, so a
 * smaller batch lets the backlog overflow under load (the kernel then drops handshakes, and the clients retry
 * after 1, 3, 7 s: the p99 of a burst of 10,000 connections was 7 s with 128 per read).
 */
public final class AcceptBatch extends DefaultMaxMessagesRecvByteBufAllocator {
    static final int PER_READ = NetUtil.SOMAXCONN;

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
                return 128; // unused: no buffer is allocated to accept
            }
        };
    }
}
