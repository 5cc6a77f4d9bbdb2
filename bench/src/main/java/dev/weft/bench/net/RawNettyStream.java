package dev.weft.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.concurrent.locks.LockSupport;

/**
 * Raw Netty streaming of Weft's frames one way: the practical limit of a buffered net channel's throughput.
 *
 * <p>A plain thread writes {@code n} frames (17-byte header and the payload, behind a 4-byte length), each with
 * {@code writeAndFlush} from outside the event loop, as a writer hands each value to its link. A
 * {@link FlushConsolidationHandler} merges the flushes of frames queued together into one write to the socket,
 * and the writer parks while the channel is over its write-buffer high-water mark (Netty's own backpressure),
 * so memory stays bounded as with Weft's credits. The server's event loop counts the frames and wakes the writer
 * when the last one is in: the time covers every value from the first write to its arrival.
 */
public final class RawNettyStream implements AutoCloseable {
    private final Handoff<Long> allIn = new Handoff<>();
    private volatile long until; // the count at which the current stream is all in
    private volatile Thread writer;
    private final NettyLoopback loopback;

    /** Connects a client to a counting server. */
    public RawNettyStream() {
        loopback = new NettyLoopback(() -> new ChannelHandler[] {new ChannelInboundHandlerAdapter() {
            private long counted;

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object frame) {
                ((ByteBuf) frame).release();
                if (++counted == until) {
                    allIn.give(counted);
                }
            }
        }}, () -> new ChannelHandler[] {new FlushConsolidationHandler(256, true), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                Thread w = writer;
                if (w != null && ctx.channel().isWritable()) {
                    LockSupport.unpark(w);
                }
                ctx.fireChannelWritabilityChanged();
            }
        }});
    }

    /**
     * Streams {@code n} frames of {@code payloadBytes} of payload from the calling thread and returns once the
     * server has counted them all; returns how many of them it counted.
     */
    public long send(int n, int payloadBytes) {
        Channel ch = loopback.client;
        writer = Thread.currentThread();
        long before = until;
        until = before + n;
        byte[] payload = new byte[payloadBytes];
        for (int i = 0; i < n; i++) {
            while (!ch.isWritable()) {
                LockSupport.park(this); // unparked when it is writable again (checked after writer was set)
            }
            ch.writeAndFlush(NettyLoopback.frame(ch.alloc(), 1, i, payload), ch.voidPromise());
        }
        return allIn.take() - before;
    }

    @Override
    public void close() {
        loopback.close();
    }
}
