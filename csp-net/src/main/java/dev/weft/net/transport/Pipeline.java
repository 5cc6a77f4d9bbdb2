package dev.weft.net.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * The handlers of a connection, from the socket up: the watch for silence, TLS if configured, frames with their
 * 4-byte length prefix ({@link FrameDecoder}, on Netty's length-field decoder, and {@link FrameEncoder}), backpressure, the {@link Handshake} (which
 * hands its place to the {@link Heartbeat} once the link is up) and the {@link Connection} itself, which
 * delivers the link's frames.
 */
final class Pipeline extends ChannelInitializer<Channel> {
    static final int LENGTH_BYTES = 4;
    private final Links links;
    private final SslContext tls;
    private final Connection dialled;

    /**
     * @param tls     the TLS context for this side (client when dialling), or null for plain TCP
     * @param dialled the connection for an outgoing channel, or null to make one for each accepted channel
     */
    Pipeline(Links links, SslContext tls, Connection dialled) {
        this.links = links;
        this.tls = tls;
        this.dialled = dialled;
    }

    @Override
    protected void initChannel(Channel ch) {
        ChannelPipeline p = ch.pipeline();
        TransportConfig c = links.config;
        // First, below TLS and framing: any byte from the peer shows it alive, also the bytes of a frame that takes
        // longer than the timeout to arrive (16 MiB at 1 Mbit/s: two minutes), behind which its pings wait.
        p.addLast(new IdleStateHandler(c.heartbeatTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS)); // pings: Heartbeat
        if (tls != null) {
            p.addLast(dialled == null ? tls.newHandler(ch.alloc())
                    : tls.newHandler(ch.alloc(), dialled.dialledPeer().host(), dialled.dialledPeer().port()));
        }
        Connection connection = dialled == null ? new Connection(links, null) : dialled;
        p.addLast(new FrameDecoder(c.maxFrameBytes(), connection),
                new FrameEncoder(),
                Backpressure.INSTANCE,
                new Handshake(links, connection),
                connection);
    }
}
