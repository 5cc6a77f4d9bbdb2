package dev.weft.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Raw Netty ping-pong of Weft's frames: the practical limit of a synchronous net ping-pong.
 *
 * <p>One round trip is: the client, a plain application thread, writes one frame (17-byte header and the
 * payload, behind a 4-byte length) with {@code writeAndFlush} from outside the event loop, so it goes to the
 * socket as a task of the client's event loop; the server's event loop reads it and writes the same bytes back;
 * the client's event loop reads the echo and hands it to the client thread, which has been parked waiting for
 * it ({@link Handoff}) and now checks it is the echo of its own frame. So: one frame each way, and one
 * application thread woken per round trip, as a Weft writer thread is woken.
 *
 * <p>With {@code echoThread}, the server's event loop hands each frame to a plain server thread that writes it
 * back, as a Weft reader thread on the other node does: two application threads woken per round trip.
 */
public final class RawNettyPingPong implements AutoCloseable {
    private static final Object STOP = new Object();

    private final byte[] payload;
    private final Handoff<ByteBuf> echoes = new Handoff<>();
    private final Handoff<Object> toEcho;
    private final Thread echoer;
    private final NettyLoopback loopback;

    /**
     * Connects a client to an echoing server, frames carrying {@code payloadBytes} of payload; with
     * {@code echoThread} the server echoes from a plain thread, else from its event loop.
     */
    public RawNettyPingPong(int payloadBytes, boolean echoThread) {
        payload = new byte[payloadBytes];
        toEcho = echoThread ? new Handoff<>() : null;
        loopback = new NettyLoopback(() -> new ChannelHandler[] {new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object frame) {
                if (toEcho != null) {
                    toEcho.give(frame);
                } else {
                    ctx.writeAndFlush(frame, ctx.voidPromise());
                }
            }
        }}, () -> new ChannelHandler[] {new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object echo) {
                echoes.give((ByteBuf) echo);
            }
        }});
        if (echoThread) {
            echoer = new Thread(this::echo, "raw-netty-echo");
            echoer.setDaemon(true);
            echoer.start();
        } else {
            echoer = null;
        }
    }

    private void echo() {
        for (Object frame = toEcho.take(); frame != STOP; frame = toEcho.take()) {
            loopback.server.writeAndFlush(frame, loopback.server.voidPromise());
        }
    }

    /** Makes {@code n} round trips from the calling thread; returns how many came back as sent. */
    public int roundTrips(int n) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            loopback.client.writeAndFlush(NettyLoopback.frame(loopback.client.alloc(), 1, i, payload),
                    loopback.client.voidPromise());
            ByteBuf echo = echoes.take();
            if (NettyLoopback.number(echo) == i && echo.readableBytes() == NettyLoopback.HEADER_BYTES + payload.length) {
                ok++;
            }
            echo.release();
        }
        return ok;
    }

    @Override
    public void close() {
        if (echoer != null) {
            toEcho.give(STOP);
        }
        loopback.close();
    }
}
