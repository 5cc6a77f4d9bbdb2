package dev.weft.net.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How a connection ends after this node's last word to the peer (a goodbye, a refusal, a redundant connection's
 * verdict), so that the peer can read it. A socket closed while the peer's bytes still wait in it unread (a peer
 * streaming frames at us always has some on their way) sends a reset instead of a FIN, and a reset can destroy
 * the last word at the peer before the peer has read it. So once the last word is written the connection shuts
 * its output down (with TLS, after a close_notify): the peer reads the last word, then the end of the stream.
 * Meanwhile this handler, first in the pipeline, drops whatever the peer sends, undecoded (TLS, the framing and
 * the link never see it), releasing each buffer as it comes; the connection closes when the peer closes its end
 * (Netty closes a channel at the end of its input, half-closure being off) or after {@link #BOUND}, whatever
 * the peer does. Lives on the event loop.
 */
final class Linger extends ChannelInboundHandlerAdapter {
    /**
     * The longest a connection stays open after its last word: ample for a peer that reads to take it and close,
     * and the most a peer that never stops sending (or never reads) holds the socket.
     */
    static final Duration BOUND = Duration.ofSeconds(2);

    private Linger() {
    }

    /**
     * Writes {@code last} on {@code channel}, then ends the connection as above (on the loop). The channel joins
     * {@code lingering} until it closes.
     */
    static void close(Channel channel, Frame last, ChannelGroup lingering) {
        lingering.add(channel);
        channel.pipeline().addFirst("linger", new Linger());
        channel.config().setAutoRead(true); // also where backpressure had stopped reading: unread bytes make the reset
        ScheduledFuture<?> bound = channel.eventLoop().schedule(() -> {
            channel.close();
        }, BOUND.toMillis(), TimeUnit.MILLISECONDS);
        channel.closeFuture().addListener(f -> bound.cancel(false));
        channel.writeAndFlush(last).addListener((ChannelFuture written) -> {
            if (!written.isSuccess()) {
                channel.close();
                return;
            }
            // The write is done, so the FIN goes out after the last word (a shutdown fails writes still pending).
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            ChannelFuture notified = tls == null ? channel.newSucceededFuture() : tls.closeOutbound();
            notified.addListener(n -> {
                if (channel instanceof DuplexChannel duplex) {
                    duplex.shutdownOutput().addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                } else {
                    channel.close();
                }
            });
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // nothing was passed on
    }

    /** Backpressure would stop reading while our last word waits for the peer: we read on, to drop. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    }

    /** A reset by the peer, or any other failure: nothing is left to say. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
