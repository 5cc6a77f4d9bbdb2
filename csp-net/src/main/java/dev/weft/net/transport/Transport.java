package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import dev.weft.net.poll.CarrierLoop;
import dev.weft.net.poll.CarrierLoops;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A node's network transport: it listens for other nodes, dials them, and keeps one {@link Link} per peer node
 * over which the channel layer multiplexes all its channels. Every connection starts with a handshake (identity,
 * protocol version, and with a secret a challenge-response proof), may run over TLS, sends heartbeats, and is
 * lost with a reason when it breaks.
 *
 * <p>One event loop per node does all the I/O and calls the {@link LinkListener}: the listener must not block
 * it. That loop is either a thread of the node's own, or, for a node on a scheduler, one carrier's
 * {@link CarrierLoop} (that of the carrier that started it, or the carriers in turn): then frames are decoded, and the fibers they wake run,
 * on the carrier that polled the socket. Either way all of a node's links share the one loop, which orders their
 * events (both connections of a simultaneous connect included) without locks. Thread-safe.
 */
public final class Transport implements AutoCloseable {
    /** Why every link is lost when its own node closes. */
    static final String CLOSED = "this node closed";
    private static final long CLOSE_WAIT_SECONDS = 5;
    // Past 256 KiB queued for a peer we stop reading from it, below 64 KiB we read again.
    private static final WriteBufferWaterMark WATER_MARKS = new WriteBufferWaterMark(64 * 1024, 256 * 1024);

    /** The node's own loop thread, or null on the carriers (whose loops live as long as the carriers). */
    private final EventLoopGroup group;
    private final ThreadPoolExecutor lookups;
    private final Links links;
    private final Channel server;
    private final NodeAddress address;
    private final AtomicReference<SelfLink> self = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private Transport(EventLoopGroup group, ThreadPoolExecutor lookups, Links links, Channel server, NodeAddress address) {
        this.group = group;
        this.lookups = lookups;
        this.links = links;
        this.server = server;
        this.address = address;
    }

    /**
     * Starts a transport listening on {@code config}'s host and port (port 0: a free one), using epoll where
     * available and NIO elsewhere.
     *
     * @param listener hears the frames that come in on every link and the links lost, on the event loop
     * @throws UncheckedIOException saying which host:port if it cannot listen there
     */
    public static Transport start(TransportConfig config, LinkListener listener) {
        return start(config, listener, Epoll.isAvailable());
    }

    /**
     * As {@link #start(TransportConfig, LinkListener)}, on one of {@code carriers}' loops (the calling carrier's, or
     * from another thread the next in turn), or on a loop thread of its own if {@code carriers} is null.
     */
    public static Transport start(TransportConfig config, LinkListener listener, CarrierLoops carriers) {
        return carriers == null ? start(config, listener) : start(config, listener, carriers.next(), null, carriers.epoll());
    }

    /** {@link #start(TransportConfig, LinkListener)} on epoll or on NIO. */
    static Transport start(TransportConfig config, LinkListener listener, boolean epoll) {
        // One loop: every link's events, and both connections of a simultaneous connect, are ordered without locks.
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("weft-net", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        return start(config, listener, group.next(), group, epoll);
    }

    private static Transport start(TransportConfig config, LinkListener listener, EventLoop loop, EventLoopGroup group,
                                   boolean epoll) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(listener, "listener");
        SslContext clientTls = config.tls() == null ? null : tls(config.tls(), true);
        SslContext serverTls = config.tls() == null ? null : tls(config.tls(), false);
        ThreadPoolExecutor lookups = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory("weft-net-lookup", true));
        Bootstrap dialler = new Bootstrap().group(loop)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true) // our drains already gather frames
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARKS)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.heartbeatTimeout().toMillis()));
        Links links = new Links(config, listener, loop, clientTls, dialler, lookups);
        Channel server;
        try {
            ChannelFuture bound = new ServerBootstrap().group(loop)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.AUTO_READ, false) // accept nothing before we know our own address
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARKS)
                    .childHandler(new Pipeline(links, serverTls, null))
                    .bind(config.host(), config.port());
            if (!await(loop, bound::isDone, TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS))) {
                throw new IOException("its event loop did not answer within " + CLOSE_WAIT_SECONDS + " s");
            }
            server = bound.syncUninterruptibly().channel();
        } catch (Exception e) { // also the bind's checked exceptions, which Netty throws unchecked
            if (group != null) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            }
            lookups.shutdown();
            throw new UncheckedIOException("cannot listen on " + config.host() + ":" + config.port() + ": " + Connection.brief(e),
                    e instanceof IOException io ? io : new IOException(e));
        }
        NodeAddress address = new NodeAddress(config.host(), ((InetSocketAddress) server.localAddress()).getPort());
        links.self(address);
        server.config().setAutoRead(true);
        return new Transport(group, lookups, links, server, address);
    }

    /** Netty's view of {@code context}, with the context's own default cipher suites and protocols. */
    private static SslContext tls(SSLContext context, boolean client) {
        SSLParameters defaults = context.getDefaultSSLParameters();
        return new JdkSslContext(context, client, Arrays.asList(defaults.getCipherSuites()), IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, defaults.getProtocols(), false);
    }

    /** The address this node listens on: the configured host and the actual port. It is the node's identity. */
    public NodeAddress address() {
        return address;
    }

    /**
     * The live link to {@code peer}, or a new one being dialled; returns at once. Frames sent on a new link wait
     * for its handshake. If the link cannot be made (unreachable, refused, a secret or TLS mismatch, no handshake
     * within the heartbeat timeout) the listener hears {@code lost} with the reason. {@code link(address())} is an
     * in-process link to this node, whose frames reach the listener on the event loop.
     *
     * @throws IllegalArgumentException if {@code peer}'s port is 0, which no node listens on
     * @throws IllegalStateException    if this node is closed
     */
    public Link link(NodeAddress peer) {
        Objects.requireNonNull(peer, "peer");
        if (peer.port() == 0) {
            throw new IllegalArgumentException("cannot link to " + peer + ": port 0 means 'any free port' only when binding");
        }
        if (closed.get()) {
            throw new IllegalStateException("this node is closed");
        }
        if (peer.equals(address)) {
            return self.updateAndGet(s -> s != null && !s.isLost() ? s
                    : new SelfLink(address, links.loop, links.listener, links.config.maxFrameBytes()));
        }
        return links.get(peer);
    }

    /**
     * Closes this node's transport: tells every peer goodbye, loses every link ("this node closed"), stops
     * listening and stops its event loop, waiting a few seconds at most (not at all when called on the loop
     * itself): with a loop of its own, until every peer has read its goodbye, or {@link Linger#BOUND} passed.
     * Closing again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Runnable sayGoodbye = () -> {
            server.close();
            SelfLink s = self.get();
            if (s != null) {
                s.lose(CLOSED, null);
            }
            links.closeAll();
        };
        Future<?> goodbyes;
        try {
            goodbyes = links.loop.submit(sayGoodbye);
        } catch (RejectedExecutionException e) { // the carriers stopped first: their loops closed every channel
            lookups.shutdown();
            links.closeAll();
            return;
        }
        boolean onLoop = links.loop.inEventLoop();
        lookups.shutdown();
        if (group == null) { // on the carriers: their loops go on serving the scheduler's other nodes
            if (!onLoop) {
                await(links.loop, goodbyes::isDone, TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS));
            }
            return;
        }
        if (!onLoop) {
            goodbyes.awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            // Stopping the loop closes every channel at once: a goodbye still lingering (see Linger) could reach its
            // peer as a reset. Each lingers for Linger.BOUND at most.
            links.lingering.newCloseFuture().awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
        Future<?> stopped = group.shutdownGracefully(0, CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        if (!onLoop) {
            stopped.awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Whether this node's loop is a carrier's (else a thread of its own). */
    public boolean onCarriers() {
        return group == null;
    }

    /**
     * Blocks the calling thread until {@code done} or {@code nanos} pass; true if done. A carrier that blocks here
     * (a fiber starting or closing a node, or waiting for the name server) drives the node's loop meanwhile, when
     * that loop is a carrier's: it may be its own, which nobody else would poll.
     */
    public boolean await(BooleanSupplier done, long nanos) {
        return await(links.loop, done, nanos);
    }

    private static boolean await(EventLoop loop, BooleanSupplier done, long nanos) {
        if (loop instanceof CarrierLoop carrierLoop) {
            return carrierLoop.driveUntil(done, nanos);
        }
        long deadline = System.nanoTime() + nanos;
        while (!done.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, 100_000));
        }
        return true;
    }

    /** The node's links (for tests). */
    Links links() {
        return links;
    }

    @Override
    public String toString() {
        return "Transport[" + address + (closed.get() ? ", closed]" : "]");
    }
}
