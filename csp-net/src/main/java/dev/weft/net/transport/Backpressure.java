package dev.weft.net.transport;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Stops reading from a peer while its connection is not writable (more queued for it than the high water
 * mark) and reads again once it drains below the low mark: a peer that does not read what we send cannot make
 * us buffer without bound the responses its requests cause.
 */
@ChannelHandler.Sharable
final class Backpressure extends ChannelInboundHandlerAdapter {
    static final Backpressure INSTANCE = new Backpressure();

    private Backpressure() {
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }
}
