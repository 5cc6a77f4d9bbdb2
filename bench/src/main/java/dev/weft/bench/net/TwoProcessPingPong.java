package dev.weft.bench.net;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A synchronous ping-pong across two processes on loopback, Weft beside raw Netty and Go, in turns within each
 * round (as {@link NetRatios}): this JVM is the client of each, a {@link PingPongServer} JVM (or Go's
 * {@code gopeer netpp-server}) the server; the same frame sizes on the wire.
 * <ul>
 *   <li>{@code weft}: a fiber writes a value on a synchronous net channel to a fiber in the other JVM, which
 *       writes it back; each node's I/O on the one carrier of its scheduler (two synchronous writes per round
 *       trip, overlapped as far as the protocol lets them);</li>
 *   <li>{@code rawNetty}: a plain thread writes a frame through its event loop and waits for the echo, which the
 *       server writes back from its event loop (the limit of a Netty application whose callers block);</li>
 *   <li>{@code go}: a goroutine writes the frame on a {@code net.Conn} and reads the echo, a goroutine per
 *       connection echoes it ({@code GOMAXPROCS=1} in each process).</li>
 * </ul>
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.net.TwoProcessPingPong [ROUNDS] [GOPEER]</pre>
 * (GOPEER: Go's peer binary, default {@code bench/target/gopeer}, built by {@code cd bench/go && go build -o
 * ../target/gopeer .}; without it the Go column is left out.) Prints {@code RESULT} lines: ns per round trip,
 * and each peer's median ratio to raw Netty and to Go.
 */
public final class TwoProcessPingPong {
    private static final int ROUND_TRIPS = 500;

    private TwoProcessPingPong() {
    }

    /** Measures {@code args[0]} rounds (default 20) after the warm-up rounds. */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        File gopeer = new File(args.length > 1 ? args[1] : "bench/target/gopeer");
        int payload = WeftNet.encodedBytes(WeftNetPingPong.VALUE);
        String java = System.getProperty("java.home") + "/bin/java";
        String cp = System.getProperty("java.class.path");
        List<AutoCloseable> open = new ArrayList<>();
        try (Scheduler carrier = Scheduler.create(1)) {
            Map<String, LongSupplier> peers = new LinkedHashMap<>();
            Child weftServer = track(open, new Child(List.of(java, "-cp", cp, PingPongServer.class.getName(), "weft")));
            WeftClient weft = track(open, new WeftClient(carrier, weftServer.ready));
            weft.introduce();
            peers.put("weft", () -> weft.roundTrips(ROUND_TRIPS));
            Child nettyServer = track(open, new Child(List.of(java, "-cp", cp, PingPongServer.class.getName(), "netty")));
            NettyClient netty = track(open, new NettyClient(Integer.parseInt(nettyServer.ready), payload));
            peers.put("rawNetty", () -> netty.roundTrips(ROUND_TRIPS));
            if (gopeer.canExecute()) {
                Child goServer = track(open, new Child(List.of(gopeer.getPath(), "netpp-server")));
                Child goClient = track(open, new Child(List.of(gopeer.getPath(), "netpp-client", goServer.ready,
                        String.valueOf(NettyLoopback.HEADER_BYTES + payload)), false));
                peers.put("go", () -> goClient.roundTrips(ROUND_TRIPS));
            } else {
                System.out.println("no Go peer: " + gopeer + " is not there (cd bench/go && go build -o ../target/gopeer .)");
            }
            Map<String, double[]> ns = NetRatios.inTurns(peers, rounds, ROUND_TRIPS);
            NetRatios.report("twoProcessPingPong", ns, false);
            if (ns.containsKey("go")) {
                NetRatios.result("twoProcessPingPong.weft.vsGo", NetRatios.medianRatio(ns.get("weft"), ns.get("go")));
            }
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
        }
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> open, T resource) {
        open.add(resource);
        return resource;
    }

    /** A server (or Go's client) process: its first line {@code READY <where>} read; closed by closing its input. */
    private static final class Child implements AutoCloseable {
        final Process process;
        final String ready;
        private final BufferedReader out;
        private final PrintStream in;

        Child(List<String> command) throws IOException {
            this(command, true);
        }

        Child(List<String> command, boolean waitForReady) throws IOException {
            ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
            b.environment().put("GOMAXPROCS", "1");
            process = b.start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            String line = waitForReady ? readLine() : null;
            if (waitForReady && !line.startsWith("READY ")) {
                throw new IllegalStateException(command + " said " + line);
            }
            ready = line == null ? null : line.substring("READY ".length());
        }

        private String readLine() throws IOException {
            String line = out.readLine();
            if (line == null) {
                throw new IllegalStateException("the process " + process.info().command().orElse("?") + " ended");
            }
            return line;
        }

        /** Go's client: asks for {@code n} round trips and waits for its answer. */
        long roundTrips(int n) {
            in.println(n);
            try {
                String line = readLine();
                if (!line.startsWith("RESULT ")) {
                    throw new IllegalStateException("Go's client said " + line);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return n;
        }

        @Override
        public void close() throws InterruptedException {
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** Weft's client: a node on the given carrier, a fiber making the round trips. */
    private static final class WeftClient implements AutoCloseable {
        private final Scheduler carrier;
        private final Node node;
        private final NetChannelOutput<Object> ping;
        private final NetChannelInput<Object> pong;

        WeftClient(Scheduler carrier, String serverLocation) {
            this.carrier = carrier;
            node = Node.builder().scheduler(carrier).start();
            pong = node.net2one();
            ping = node.one2net(NetChannelLocation.parse(serverLocation));
        }

        /** Tells the server where to write back; this thread blocks until the server's fiber has read it. */
        void introduce() {
            Weft.run(carrier, () -> ping.write(pong.location().toString()));
        }

        long roundTrips(int n) {
            long[] ok = new long[1];
            Weft.run(carrier, () -> {
                for (int i = 0; i < n; i++) {
                    ping.write(WeftNetPingPong.VALUE);
                    if (WeftNetPingPong.VALUE.equals(pong.read())) {
                        ok[0]++;
                    }
                }
            });
            return ok[0];
        }

        @Override
        public void close() {
            node.close();
        }
    }

    /** Raw Netty's client: an event loop of its own, the calling thread waiting for each echo. */
    private static final class NettyClient implements AutoCloseable {
        private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1,
                new DefaultThreadFactory("raw-netty-client", true), NettyLoopback.ioHandlers());
        private final Handoff<ByteBuf> echoes = new Handoff<>();
        private final Channel channel;
        private final byte[] payload;

        NettyClient(int port, int payloadBytes) {
            payload = new byte[payloadBytes];
            channel = new Bootstrap().group(loop).channel(NettyLoopback.clientType())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, NettyLoopback.WATER_MARKS)
                    .handler(NettyLoopback.framed(() -> new ChannelHandler[] {new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object echo) {
                            echoes.give((ByteBuf) echo);
                        }
                    }}, new CompletableFuture<>()))
                    .connect("127.0.0.1", port).syncUninterruptibly().channel();
        }

        long roundTrips(int n) {
            long ok = 0;
            for (int i = 0; i < n; i++) {
                channel.writeAndFlush(NettyLoopback.frame(channel.alloc(), 1, i, payload), channel.voidPromise());
                ByteBuf echo = echoes.take();
                if (NettyLoopback.number(echo) == i) {
                    ok++;
                }
                echo.release();
            }
            return ok;
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
