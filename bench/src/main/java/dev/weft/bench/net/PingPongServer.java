package dev.weft.bench.net;

import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The server process of {@link TwoProcessPingPong}: echoes one client's values until its standard input closes.
 * {@code weft}: a node whose I/O runs on the one carrier of its scheduler, a fiber that reads each value from a
 * synchronous net channel and writes it back on another (the client's first value says where). {@code netty}: a
 * raw Netty server that echoes every frame from its one event loop. Prints {@code READY <where>} once it listens.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.net.PingPongServer weft|netty</pre>
 */
public final class PingPongServer {
    private PingPongServer() {
    }

    /** Serves as {@code args[0]} says. */
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "weft" -> weft();
            case "netty" -> netty();
            default -> throw new IllegalArgumentException("a server is weft or netty, not " + args[0]);
        }
    }

    private static void weft() {
        try (Scheduler s = Scheduler.create(1); Node node = Node.builder().scheduler(s).start()) {
            NetChannelInput<Object> ping = node.net2one();
            System.out.println("READY " + ping.location());
            closeOnEndOfInput(node::close);
            Weft.run(s, () -> {
                try {
                    NetChannelOutput<Object> pong = node.one2net(NetChannelLocation.parse((String) ping.read()));
                    for (;;) {
                        pong.write(ping.read());
                    }
                } catch (PoisonException closed) {
                    // the node closed: the driver is done
                }
            });
        }
    }

    private static void netty() throws Exception {
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("raw-netty-server", true),
                NettyLoopback.ioHandlers());
        try {
            CompletableFuture<Void> done = new CompletableFuture<>();
            var listener = new ServerBootstrap().group(loop).channel(NettyLoopback.serverType())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, NettyLoopback.WATER_MARKS)
                    .childHandler(NettyLoopback.framed(() -> new ChannelHandler[] {new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object frame) {
                            ctx.writeAndFlush(frame, ctx.voidPromise());
                        }
                    }}, new CompletableFuture<>()))
                    .bind("127.0.0.1", 0).syncUninterruptibly().channel();
            System.out.println("READY " + ((java.net.InetSocketAddress) listener.localAddress()).getPort());
            closeOnEndOfInput(() -> done.complete(null));
            done.get();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** Runs {@code close} once standard input ends (the driver closes it, or exits). */
    private static void closeOnEndOfInput(Runnable close) {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is sent: only the end matters
                }
            } catch (IOException e) {
                // the same as the end
            }
            close.run();
        }, "ping-pong-server-stdin");
        watch.setDaemon(true);
        watch.start();
    }
}
