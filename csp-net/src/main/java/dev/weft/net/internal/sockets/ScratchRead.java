package dev.weft.net.internal.sockets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Where a connection's socket reads into: the reading thread's own direct buffer, the same one every time, whose
 * bytes the connection's handler copies out before the read returns. Netty's default is a pooled buffer per read
 * (taken from the pool, tracked by the leak detector, handed down the pipeline, given back by the reader), which
 * in a small server answering short requests was a fifth of its processor time in user space.
 *
 * <p>Only for a pipeline whose handlers copy a read's bytes out in {@code channelRead} and keep no reference to its
 * buffer: the next read on the thread, of any socket, overwrites it. The buffer cannot be released (Netty releases
 * a read's buffer when the read finds nothing), and lives as long as its thread (a carrier clears its
 * {@code FastThreadLocal}s as it ends).
 */
public final class ScratchRead extends DefaultMaxMessagesRecvByteBufAllocator {
    /** The most one read takes from the socket: a larger message is read by several. */
    static final int CAPACITY = 64 * 1024;
    private static final FastThreadLocal<ByteBuf> BUFFER = new FastThreadLocal<>() {
        @Override
        protected ByteBuf initialValue() {
            return Unpooled.unreleasableBuffer(Unpooled.directBuffer(CAPACITY, CAPACITY));
        }
    };

    @Override
    public Handle newHandle() {
        return new MaxMessageHandle() {
            @Override
            public ByteBuf allocate(ByteBufAllocator alloc) {
                return BUFFER.get().clear();
            }

            @Override
            public int guess() {
                return CAPACITY;
            }
        };
    }
}
