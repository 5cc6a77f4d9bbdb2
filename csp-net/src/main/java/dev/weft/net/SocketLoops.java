package dev.weft.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Where the sockets of {@link TcpServer} and {@link TcpConnection} live: the one place that knows which Netty
 * event loops run them. Today one shared loop thread (a daemon, started with the first socket) polls every
 * socket and wakes the fibers waiting on them through {@link dev.weft.csp.Readiness}, from its own thread; once
 * the carriers poll for I/O themselves, a socket lives on its carrier's loop instead and a wake-up there needs
 * no hand-off. Nothing else in the socket classes changes then.
 */
final class SocketLoops {
    private static final boolean EPOLL = Epoll.isAvailable();

    private SocketLoops() {
    }

    /** The loops sockets are registered with; started once, on first use. */
    static EventLoopGroup group() {
        return Shared.GROUP;
    }

    static Class<? extends SocketChannel> socketChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** Lazily started: a program that uses no socket starts no thread. */
    private static final class Shared {
        static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("weft-sockets", true),
                EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }
}
