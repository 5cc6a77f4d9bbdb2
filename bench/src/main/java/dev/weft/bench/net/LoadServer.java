package dev.weft.bench.net;

import dev.weft.bench.peers.ThreadStarter;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.TcpConnection;
import dev.weft.net.TcpServer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The Java servers of {@code bench/servers.sh}, each answering every HTTP/1.1 request (a header block ending
 * in an empty line) with the same small keep-alive response, as {@code bench/go/loadserver} does in Go: Weft
 * (a fiber per connection on {@link TcpServer}), virtual threads with blocking sockets, and raw Netty handlers
 * (Netty's pooled buffers). Each Weft and virtual-thread connection reads into a 4 KiB buffer. Prints {@code READY <port>} once it listens, then serves until
 * killed.
 *
 * <p>Usage: {@code LoadServer weft <carriers> <port> | virtual <port> | netty <threads> <port>}
 */
public final class LoadServer {
    static final byte[] RESPONSE = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = {'\r', '\n', '\r', '\n'};
    private static final int BUFFER = 4096;

    private LoadServer() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "weft" -> weft(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "virtual" -> virtual(Integer.parseInt(args[1]));
            case "netty" -> netty(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("unknown server " + args[0] + ": weft, virtual or netty");
        }
    }

    /** Counts the requests that {@code bytes} completes; {@code state[0]} carries a partial match over. */
    static int requests(byte[] bytes, int from, int to, int[] state) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n += step(state, bytes[i]);
        }
        return n;
    }

    /** Advances the match of the empty line that ends a request by one byte: 1 if it ends one. */
    static int step(int[] state, byte b) {
        int matched = b == END[state[0]] ? state[0] + 1 : b == '\r' ? 1 : 0;
        state[0] = matched == 4 ? 0 : matched;
        return matched == 4 ? 1 : 0;
    }

    /** {@code n} responses in one array. */
    static byte[] responses(int n) {
        if (n == 1) {
            return RESPONSE;
        }
        byte[] out = new byte[RESPONSE.length * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(RESPONSE, 0, out, i * RESPONSE.length, RESPONSE.length);
        }
        return out;
    }

    private static InetSocketAddress at(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    // ------------------------------------------------------------------ Weft: a fiber per connection

    private static void weft(int carriers, int port) {
        Scheduler s = Scheduler.create(carriers);
        Weft.run(s, () -> {
            try (TcpServer server = TcpServer.bind(at(port))) {
                System.out.println("READY " + server.address().getPort());
                for (;;) {
                    TcpConnection c = server.accept();
                    Weft.spawn(() -> serve(c));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Answers the requests of {@code c} until its peer ends the stream or goes away, then closes it. */
    @Pausable
    static void serve(TcpConnection c) {
        try (c) {
            ByteBuffer in = ByteBuffer.allocate(BUFFER);
            ByteBuffer response = ByteBuffer.wrap(RESPONSE); // one request's answer, written again from its start
            int[] state = new int[1];
            while (c.read(in) >= 0) {
                int n = requests(in.array(), 0, in.position(), state);
                in.clear();
                if (n == 1) {
                    c.write(response.clear());
                } else if (n > 1) {
                    c.write(ByteBuffer.wrap(responses(n)));
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    // ------------------------------------------------------------------ virtual threads, blocking sockets

    private static void virtual(int port) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(at(port), 4096);
        System.out.println("READY " + server.getLocalPort());
        for (;;) {
            Socket c = server.accept();
            ThreadStarter.VIRTUAL.start(() -> serve(c));
        }
    }

    private static void serve(Socket c) {
        try (c) {
            c.setTcpNoDelay(true);
            InputStream in = c.getInputStream();
            OutputStream out = c.getOutputStream();
            byte[] buf = new byte[BUFFER];
            int[] state = new int[1];
            for (int r; (r = in.read(buf)) >= 0; ) {
                int n = requests(buf, 0, r, state);
                if (n > 0) {
                    out.write(responses(n));
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    // ------------------------------------------------------------------ raw Netty handlers

    private static void netty(int threads, int port) throws InterruptedException {
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
        ServerBootstrap b = new ServerBootstrap().group(loops).channel(EpollServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new Answer());
                    }
                });
        int bound = ((InetSocketAddress) b.bind(at(port)).sync().channel().localAddress()).getPort();
        System.out.println("READY " + bound);
        Thread.currentThread().join();
    }

    /** Counts the requests each read completes and answers them with one write. */
    private static final class Answer extends ChannelInboundHandlerAdapter {
        private final int[] state = new int[1];

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            int n = 0;
            try {
                for (int i = bytes.readerIndex(); i < bytes.writerIndex(); i++) {
                    n += step(state, bytes.getByte(i));
                }
            } finally {
                bytes.release();
            }
            if (n > 0) {
                ctx.writeAndFlush(Unpooled.wrappedBuffer(responses(n)));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
