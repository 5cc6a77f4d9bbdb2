package dev.weft.net.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The heartbeat of a live link: a ping every interval, and the link lost when not a byte came from the peer for
 * the timeout ({@code IdleStateHandler} at the bottom of the pipeline watches, below TLS and the framing). Added
 * by the {@link Handshake} when the link comes up. It does not look at frames: Netty passes them by.
 */
final class Heartbeat extends ChannelInboundHandlerAdapter {
    private static final Frame PING = new Frame(Control.PING, 0, 0);

    private final TransportConfig config;
    private final Connection connection;
    private ScheduledFuture<?> pings;
    /** Where our output stood at the last look, while we do not read (see {@link #outputMoved}). */
    private Object lastWriting;
    private long lastWritten;
    /**
     * Whether we stopped reading at some time since the last silence. Then the peer's silence may be ours: when
     * reading resumes, the bytes waiting in the socket are read only at the next poll, and the watch may look
     * first (it did, on a loaded machine, at the instant the output drained).
     */
    private boolean stoppedReading;

    Heartbeat(TransportConfig config, Connection connection) {
        this.config = config;
        this.connection = connection;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // A ping every interval, whatever else is sent: watching for quiet writes would put a listener on every
        // write's promise, which a busy link pays for on each frame.
        Channel channel = ctx.channel();
        long every = config.heartbeatInterval().toMillis();
        pings = ctx.executor().scheduleAtFixedRate(() -> {
            if (connection.isUp()) {
                channel.writeAndFlush(PING, channel.voidPromise());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        pings.cancel(false);
        ctx.fireChannelInactive();
    }

    /**
     * While this node does not read from the peer (backpressure: the peer takes our bytes more slowly than we send
     * them), the peer's heartbeats wait unread; our bytes still leaving show it alive then. Marks where our output
     * stands, to tell at the next silence whether it moved.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            outputMoved(ctx.channel());
            stoppedReading = true;
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent idle && connection.isUp()) {
            // Silence: not a byte from the peer for the timeout (the watch sits below the framing); if we stopped
            // reading meanwhile, also none of ours leaving. A peer gone stops both. The next look comes a timeout
            // later, so a peer that died as we resumed reading is lost then.
            Channel channel = ctx.channel();
            if (idle.state() == IdleState.READER_IDLE) {
                boolean readAll = channel.config().isAutoRead() && !stoppedReading;
                stoppedReading = !channel.config().isAutoRead();
                if (readAll || !outputMoved(channel)) {
                    String time = Links.seconds(config.heartbeatTimeout());
                    connection.fail(readAll ? "no heartbeat from " + connection.link().peer() + " for " + time
                            : connection.who() + " has not read what this node sent for " + time);
                }
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    /**
     * Whether a byte of ours left for the socket since the last call: the message being written, or how much of it
     * is written, changed (Netty's own test, as {@code IdleStateHandler}'s {@code observeOutput}).
     */
    private boolean outputMoved(Channel channel) {
        ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
        if (out == null) {
            return false;
        }
        Object writing = out.current();
        long written = out.currentProgress();
        boolean moved = writing != lastWriting || written != lastWritten;
        lastWriting = writing;
        lastWritten = written;
        return moved;
    }
}
