package dev.weft.net;

import dev.weft.csp.CancelledException;
import dev.weft.csp.Guard;
import dev.weft.csp.Pausable;
import dev.weft.csp.Readiness;
import dev.weft.net.internal.sockets.AcceptBatch;
import dev.weft.net.internal.sockets.SocketLoops;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.ChannelOption;
import io.netty.channel.ServerChannel;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A listening TCP socket whose {@link #accept()} pauses the calling fiber instead of blocking its carrier (a
 * plain thread blocks in it). Connections are taken from the socket only when someone accepts (or selects on
 * {@link #acceptable()}), so a server that stops accepting leaves new ones in the kernel's backlog.
 *
 * <p>{@link #close()} closes the listening socket and every connection it accepted that is still open: a
 * fiber waiting in {@code accept} or in a read or write on one of them throws
 * {@link ClosedChannelException}, and so does every later accept. A cancelled {@code accept} leaves the server
 * open. A fiber waiting here is never part of a deadlock report. Thread-safe.
 */
public final class TcpServer implements AutoCloseable {
    private final Arrivals arrivals = new Arrivals(); // also the lock of the fields below
    private final Readiness acceptable = new Readiness(this::acceptableNow, this);
    private final Runnable askForConnections = this::askForConnections;
    private final ArrayDeque<TcpConnection> arrived = new ArrayDeque<>();
    private final Set<TcpConnection> open = ConcurrentHashMap.newKeySet();
    private boolean acceptRequested;
    private boolean closed;
    private Channel channel; // set once bound, before the server is published
    private InetSocketAddress address;

    private TcpServer() {
    }

    /**
     * Listens on {@code at} (port 0: a free port, see {@link #address()}).
     *
     * @throws BindException if the address is in use or cannot be bound
     * @throws IOException if listening fails for another reason
     */
    public static TcpServer bind(InetSocketAddress at) throws IOException {
        Objects.requireNonNull(at, "address is null");
        TcpServer server = new TcpServer();
        ServerChannel listening = SocketLoops.newServerChannel();
        listening.config().setOption(ChannelOption.SO_REUSEADDR, true);
        listening.config().setAutoRead(false); // a connection is taken when someone accepts
        listening.config().setRecvByteBufAllocator(new AcceptBatch()); // the whole backlog at a time
        listening.pipeline().addLast(server.arrivals);
        EventLoop loop = SocketLoops.here();
        ChannelFuture[] bound = new ChannelFuture[1];
        SocketLoops.inline(loop, () -> bound[0] = loop.register(listening).channel().bind(at));
        if (!SocketLoops.await(bound[0]) || !bound[0].isSuccess()) {
            listening.close();
            Throwable cause = bound[0].isDone() ? bound[0].cause() : new IOException("timed out");
            String why = "cannot listen on " + at + ": " + cause.getMessage();
            IOException failed = cause instanceof BindException ? new BindException(why) : new IOException(why);
            failed.initCause(cause);
            throw failed;
        }
        server.channel = listening;
        server.address = (InetSocketAddress) listening.localAddress();
        return server;
    }

    /** Where this server listens (with the port chosen if 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    /**
     * Takes the next connection, pausing until one arrives.
     *
     * @throws ClosedChannelException if this server is closed, before or while this waits
     * @throws CancelledException if the fiber is cancelled (the thread interrupted) while it waits; the server
     *     stays open and no connection is lost
     */
    @Pausable
    public TcpConnection accept() throws IOException {
        for (;;) {
            TcpConnection c;
            synchronized (arrivals) {
                if (closed) {
                    throw new ClosedChannelException();
                }
                c = arrived.poll();
            }
            if (c != null) {
                return c;
            }
            acceptable.await();
        }
    }

    /** A guard, ready when {@link #accept()} would not pause (a connection waits, or the server is closed). */
    public Guard acceptable() {
        return acceptable;
    }

    /** Whether accept would not wait; if it would, asks the socket for connections (once until they come). */
    private boolean acceptableNow() {
        synchronized (arrivals) {
            if (closed || !arrived.isEmpty()) {
                return true;
            }
            if (acceptRequested) {
                return false;
            }
            acceptRequested = true;
        }
        channel.eventLoop().execute(askForConnections);
        return false;
    }

    /** Asks the listening socket for connections, on its loop, unless it is closing. */
    private void askForConnections() {
        if (channel.isActive()) {
            channel.read();
        }
    }

    /**
     * Stops listening and closes every connection this server accepted that is still open (those not yet
     * accepted too). Idempotent.
     */
    @Override
    public void close() {
        List<TcpConnection> toClose;
        synchronized (arrivals) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(arrived);
            arrived.clear();
        }
        acceptable.signal();
        channel.close();
        toClose.addAll(open);
        for (TcpConnection c : toClose) {
            c.close();
        }
    }

    /** A connection this server accepted has closed. */
    void forget(TcpConnection c) {
        open.remove(c);
    }

    /** The listening channel, for tests that watch its events. */
    Channel channel() {
        return channel;
    }

    /** The connections accepted and not closed yet (taken by accept or waiting for it). */
    int openConnections() {
        return open.size();
    }

    @Override
    public String toString() {
        return "TcpServer[" + address + "]";
    }

    /**
     * What the listening socket's loop tells the server: each connection it accepted, left unregistered until
     * it is first used (so that it is served on the loop of its serving fiber's carrier), and the end of a round.
     */
    private final class Arrivals extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel ch = (Channel) msg;
            TcpConnection.configure(ch);
            TcpConnection c = new TcpConnection(ch, TcpServer.this);
            boolean taken;
            synchronized (this) {
                taken = !closed;
                if (taken) {
                    arrived.add(c);
                    open.add(c);
                }
            }
            if (taken) {
                ch.closeFuture().addListener(f -> open.remove(c)); // gone by itself (reset) without close()
                acceptable.signal();
            } else {
                c.close();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            synchronized (this) {
                acceptRequested = false;
            }
            acceptable.signal();
            ctx.fireChannelReadComplete();
        }
    }
}
