package dev.weft.bench.net;

import dev.weft.net.transport.Frame;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Two raw Netty endpoints in one JVM, a client and a server connected over loopback, framed as Weft's links
 * frame: a 4-byte length, then a 17-byte header (type, channel, number) and the payload. Each side has an
 * event loop of its own (one daemon thread), as two Weft nodes do, with epoll where Netty has it (else NIO),
 * TCP_NODELAY and the nodes' write-buffer water marks.
 */
final class NettyLoopback implements AutoCloseable {
    /** Bytes of the header after the length: type (1), channel (8), number (8), as in Weft's frames. */
    static final int HEADER_BYTES = Frame.HEADER_BYTES;
    /** The type byte of a frame that carries a value, as Weft's channel layer numbers it (its first type). */
    static final byte DATA = Frame.FIRST_CHANNEL_TYPE;
    private static final int MAX_FRAME = 16 << 20;
    /** A Weft node's write-buffer marks: a writer waits for the socket past the high one. */
    static final WriteBufferWaterMark WATER_MARKS = new WriteBufferWaterMark(64 * 1024, 256 * 1024);

    private final EventLoopGroup serverLoop;
    private final EventLoopGroup clientLoop;
    /** The server's end of the connection (the accepted channel). */
    final Channel server;
    /** The client's end of the connection. */
    final Channel client;

    /**
     * Connects a client to a server, each with the length codec, then the handlers the suppliers make (after
     * the codec, so they see one whole frame at a time, without its length).
     */
    NettyLoopback(Supplier<ChannelHandler[]> serverHandlers, Supplier<ChannelHandler[]> clientHandlers) {
        IoHandlerFactory io = ioHandlers();
        Class<? extends ServerChannel> serverType = serverType();
        Class<? extends Channel> clientType = clientType();
        serverLoop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("raw-netty-server", true), io);
        clientLoop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("raw-netty-client", true), io);
        try {
            CompletableFuture<Channel> accepted = new CompletableFuture<>();
            Channel listener = new ServerBootstrap().group(serverLoop).channel(serverType)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARKS)
                    .childHandler(framed(serverHandlers, accepted))
                    .bind("127.0.0.1", 0).syncUninterruptibly().channel();
            client = new Bootstrap().group(clientLoop).channel(clientType)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARKS)
                    .handler(framed(clientHandlers, new CompletableFuture<>()))
                    .connect(listener.localAddress()).syncUninterruptibly().channel();
            server = accepted.get(10, TimeUnit.SECONDS);
            listener.close().syncUninterruptibly(); // one connection is all it serves
        } catch (Exception e) {
            serverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS); // closes whatever was opened on them
            clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalStateException("could not connect two Netty endpoints on loopback", e);
        }
    }

    /** Epoll where Netty has it, else NIO. */
    static IoHandlerFactory ioHandlers() {
        return Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    static Class<? extends ServerChannel> serverType() {
        return Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends Channel> clientType() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** Each channel gets the length codec, then the handlers {@code handlers} makes; {@code made} gets the channel. */
    static ChannelInitializer<Channel> framed(Supplier<ChannelHandler[]> handlers, CompletableFuture<Channel> made) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4), new LengthFieldPrepender(4));
                ch.pipeline().addLast(handlers.get());
                made.complete(ch);
            }
        };
    }

    /** A DATA frame (without its length, which the prepender adds): header, then {@code payload}. */
    static ByteBuf frame(ByteBufAllocator alloc, long channel, long number, byte[] payload) {
        return alloc.buffer(HEADER_BYTES + payload.length)
                .writeByte(DATA).writeLong(channel).writeLong(number).writeBytes(payload);
    }

    /** The number field of a frame that {@link #frame} made. */
    static long number(ByteBuf frame) {
        return frame.getLong(frame.readerIndex() + 9);
    }

    @Override
    public void close() {
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
        clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        serverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
