package dev.weft.net.internal.sockets;

import dev.weft.net.poll.CarrierLoop;
import dev.weft.net.poll.CarrierLoops;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
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
import io.netty.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Where the sockets of {@link dev.weft.net.TcpServer} and {@link dev.weft.net.TcpConnection} live: the one place that knows which Netty
 * event loops run them. A socket dialled or bound by a fiber lives on the loop of that fiber's carrier
 * ({@link CarrierLoops}), and the connections a server accepts are dealt to its carriers' loops in turn: the
 * carrier polls the socket, so bytes are read and their reader resumed on one thread, and fibers write to it inline
 * whenever no other carrier holds its loop. A socket opened by a plain thread lives on one
 * shared daemon loop thread ({@code weft-sockets}, started with the first such socket), which wakes fibers
 * through {@link dev.weft.csp.Readiness} from its own thread.
 */
public final class SocketLoops {
    private static final boolean EPOLL = Epoll.isAvailable();
    /** How long a blocking call waits for its socket's loop to register or bind it before it gives up. */
    private static final long SETUP_NANOS = TimeUnit.SECONDS.toNanos(30);

    private SocketLoops() {
    }

    /** The loop for a socket opened by the calling thread: its carrier's own, or the shared loop. */
    public static EventLoop here() {
        CarrierLoops carriers = CarrierLoops.ofCurrentCarrier();
        return carriers != null ? carriers.next() : Shared.GROUP.next();
    }

    /**
     * The loop for a connection that a server accepted, first used by the calling thread: on a carrier, the loops
     * of its scheduler's carriers in turn ({@link CarrierLoops#inTurn}), else the shared loop. Not the calling
     * carrier's own: a server's serving fibers mostly start on the carrier that accepts (only an idle carrier
     * steals), and a connection stays on its loop for good, so the carrier of the first use would pile most of a
     * server's connections on one carrier, whose clients then wait for its long turns while the other idles. A
     * fiber follows its socket: the first poll that wakes it runs it on the socket's carrier.
     */
    public static EventLoop forAccepted() {
        CarrierLoops carriers = CarrierLoops.ofCurrentCarrier();
        return carriers != null ? carriers.inTurn() : Shared.GROUP.next();
    }

    /**
     * Takes {@code loop} for the calling thread if it is a carrier of the loop's scheduler and nobody holds the
     * loop, so that the channel operations that follow run now, inline (see {@link CarrierLoop#enter}): true if
     * taken. Otherwise they are queued on the loop as usual. {@link #exit} must follow either way.
     */
    public static boolean enter(EventLoop loop) {
        return loop instanceof CarrierLoop carrierLoop && carrierLoop.enter();
    }

    /**
     * Ends the operations that {@link #enter} began: leaves the loop if {@code entered}; if not, tries once more
     * to take it and run what is queued, since the driver that held it may have let go without seeing what these
     * operations queued (see {@link CarrierLoop} on the driver).
     */
    public static void exit(EventLoop loop, boolean entered) {
        if (loop instanceof CarrierLoop carrierLoop && (entered || carrierLoop.enter())) {
            carrierLoop.exit();
        }
    }

    /** Runs {@code operations} on a channel of {@code loop} inline if {@link #enter} may, else as usual (queued). */
    public static void inline(EventLoop loop, Runnable operations) {
        boolean entered = enter(loop);
        try {
            operations.run();
        } finally {
            exit(loop, entered);
        }
    }

    /**
     * Blocks until {@code f} is done (a registration, a bind), for at most {@link #SETUP_NANOS}: true if done.
     * On a carrier it drives the carrier's loop meanwhile, since that loop may be the one {@code f} waits for.
     */
    public static boolean await(Future<?> f) {
        CarrierLoop here = CarrierLoops.here();
        if (here != null) {
            return here.driveUntil(f::isDone, SETUP_NANOS);
        }
        return f.awaitUninterruptibly(SETUP_NANOS, TimeUnit.NANOSECONDS);
    }

    /**
     * Whether every byte written to {@code channel} has been handed to its socket: nothing waits in its outbound
     * buffer (a closed channel has none). Asked by the thread that holds the channel's loop.
     */
    public static boolean nothingQueued(Channel channel) {
        ChannelOutboundBuffer queued = channel.unsafe().outboundBuffer();
        return queued == null || queued.totalPendingWriteBytes() == 0 && queued.isEmpty();
    }

    public static Class<? extends SocketChannel> socketChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public static ServerChannel newServerChannel() {
        return EPOLL ? new EpollServerSocketChannel() : new NioServerSocketChannel();
    }

    /** Lazily started: a program whose sockets are all opened by fibers starts no thread. */
    private static final class Shared {
        static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("weft-sockets", true),
                EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }
}
