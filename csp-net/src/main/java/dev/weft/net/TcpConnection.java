package dev.weft.net;

import dev.weft.csp.CancelledException;
import dev.weft.csp.Guard;
import dev.weft.csp.Pausable;
import dev.weft.csp.Readiness;
import dev.weft.net.internal.sockets.DirectSend;
import dev.weft.net.internal.sockets.ScratchRead;
import dev.weft.net.internal.sockets.Sneaky;
import dev.weft.net.internal.sockets.SocketLoops;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A TCP connection whose operations pause the calling fiber instead of blocking its carrier (a plain thread
 * blocks in them). Bytes are read only once a reader asks ({@link #read}, or a select on {@link #readable()}),
 * and while it keeps up, so a connection whose reader stops holds at most two reads' worth of them;
 * {@link #write} pauses while the peer does not take what was written, so a slow reader never makes the
 * writer's memory grow.
 *
 * <p>Cancellation: a cancelled {@code read} took nothing, and the connection stays open; a cancelled
 * {@code write} may have sent part of its buffer ({@code src.position()} says how much), then closes the
 * connection, whose peer receives exactly those bytes and then the end of the stream. After {@link #close()}
 * every operation throws {@link ClosedChannelException}; a reset by the peer is an {@link IOException}, never
 * the end of the stream. A fiber waiting here is never part of a deadlock report. Thread-safe.
 */
public final class TcpConnection implements AutoCloseable {
    /** Past 64 KiB queued for the peer a writer pauses; it goes on below 32 KiB. */
    static final WriteBufferWaterMark WATER_MARKS = new WriteBufferWaterMark(32 * 1024, 64 * 1024);
    /** A write hands the socket at most this much at a time, checking between pieces that the peer keeps up. */
    private static final int WRITE_PIECE = 64 * 1024;
    /** How long a closed connection may take to send what was written before it, to a peer that does not read. */
    private static final long CLOSE_FLUSH_SECONDS = 30;

    private final Channel channel;
    private final TcpServer server; // that accepted it, or null if dialled
    private volatile InetSocketAddress local; // known once connected
    private volatile InetSocketAddress remote;
    private final Events events = new Events(); // also the lock of the fields below (their changes)
    private final Readiness readable = new Readiness(this::readableNow, this);
    private final Readiness writable = new Readiness(this::writableNow, this);
    private final Runnable askForBytes = this::askForBytes;
    /** The bytes read and not yet taken, a read's worth each, copied out of the read's buffer (see {@link ScratchRead}). */
    private final ArrayDeque<byte[]> received = new ArrayDeque<>(2);
    /** How many bytes of the first of {@link #received} readers have taken already. */
    private int takenOfFirst;
    /**
     * Whether the socket is asked for bytes: from a reader's first wait until a read finds the reader behind
     * (bytes of an earlier read still untaken). In between it stays asked from one read to the next, so that a
     * reader that keeps up costs the socket no change of interest (an epoll_ctl each way) and its carrier no
     * task per read. Volatile: a reader that finds it set waits without taking the lock (see {@link #readableNow}).
     */
    private volatile boolean readRequested;
    /** Set by a read that found bytes of an earlier one still untaken: the socket is not asked again. */
    private boolean readerBehind;
    private boolean ended; // the peer sent the end of the stream, or the connection is gone
    // Volatile, and changed under the lock: a write, and a reader's look whether to wait, read them without it.
    private volatile boolean outputShut;
    private volatile boolean closed;
    private volatile IOException failure;
    /**
     * Whether a read would not wait: {@code closed || failure != null || ended || !received.isEmpty()}, set again
     * under the lock after each of those changes ({@link #readChanged}). A reader reads it without the lock, so
     * that a reader that keeps up takes the lock once a request, to take the bytes.
     */
    private volatile boolean readReady;
    /** Null until an accepted connection is first used (see {@link #loop()}); never changes once set. */
    private volatile EventLoop loop;

    /**
     * Wraps an active {@code channel} whose reading is left to its readers (auto-read off): registered (dialled),
     * or registered on its first use (accepted, see {@link #loop()}).
     */
    TcpConnection(Channel channel, TcpServer server) {
        this.channel = channel;
        this.server = server;
        this.local = (InetSocketAddress) channel.localAddress();
        this.remote = (InetSocketAddress) channel.remoteAddress();
        this.loop = server == null ? channel.eventLoop() : null;
        channel.pipeline().addLast(events);
    }

    /**
     * The loop this connection lives on. An accepted connection is registered on its first use, with a loop of
     * the scheduler whose carrier uses it, dealt in turn (see {@link SocketLoops#forAccepted}): a server's
     * connections spread evenly over the carriers. What is asked of the channel afterwards is queued behind its
     * registration; a registration that fails (the loop's scheduler has stopped) fails the connection.
     */
    private EventLoop loop() {
        EventLoop set = loop; // set once, so every read and write after the first takes no lock here
        if (set != null) {
            return set;
        }
        synchronized (events) {
            if (loop == null) {
                EventLoop dealt = SocketLoops.forAccepted();
                dealt.register(channel).addListener(f -> {
                    if (!f.isSuccess()) {
                        synchronized (events) {
                            failure = new IOException("the connection " + this + " cannot be served: " + f.cause(),
                                    f.cause());
                            ended = true;
                            readChanged();
                        }
                        readable.signal();
                        writable.signal();
                    }
                });
                loop = dealt; // published only once the registration is queued: what others queue comes after it
            }
            return loop;
        }
    }

    /** A dialled connection is made as its channel registers (before any event), and connects afterwards. */
    private void connected() {
        local = (InetSocketAddress) channel.localAddress();
        remote = (InetSocketAddress) channel.remoteAddress();
    }

    /**
     * The options of every connection's socket, dialled or accepted. It reads into the reading thread's buffer
     * ({@link ScratchRead}), whose bytes {@link Events#channelRead} copies out. A write that does not go straight to
     * the socket ({@link DirectSend}) takes its buffer from Netty's pooled allocator: a pooled buffer keeps its view
     * of the memory below from one use to the next, where the adaptive allocator, Netty 4.2's default, makes that
     * view anew for each buffer written into (two objects, about 64 bytes, a write).
     */
    static void configure(Channel ch) {
        ch.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ch.config().setRecvByteBufAllocator(new ScratchRead()); // see its javadoc: the handler copies each read out
        ch.config().setAutoRead(false);
        ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true); // the peer's end of stream leaves us writing
        ch.config().setOption(ChannelOption.TCP_NODELAY, true); // requests and replies, not bulk transfer
        ch.config().setWriteBufferWaterMark(WATER_MARKS);
    }

    /**
     * Connects to {@code at}, pausing the calling fiber (blocking the calling thread) until connected.
     *
     * @throws ConnectException if the connection is refused (or times out)
     * @throws IOException if it cannot be made for another reason
     * @throws CancelledException if the fiber is cancelled (the thread interrupted) meanwhile: the attempt is
     *     abandoned
     */
    @Pausable
    public static TcpConnection connect(InetSocketAddress at) throws IOException {
        Objects.requireNonNull(at, "address is null");
        Dial dial = new Dial();
        ChannelFuture connected = new Bootstrap().group(SocketLoops.here()).channel(SocketLoops.socketChannel())
                .handler(dial).connect(at);
        Readiness done = new Readiness(connected::isDone, "connect to " + at);
        connected.addListener(f -> done.signal());
        try {
            done.await();
        } catch (CancelledException e) {
            connected.cancel(false);
            connected.channel().close();
            throw e;
        }
        if (!connected.isSuccess()) {
            connected.channel().close();
            Throwable cause = connected.cause();
            String why = "cannot connect to " + at + ": " + cause.getMessage();
            IOException failed = cause instanceof ConnectException ? new ConnectException(why) : new IOException(why);
            failed.initCause(cause);
            throw failed;
        }
        dial.made.connected();
        return dial.made;
    }

    /** Makes the connection of a dialled channel once it is registered, before it connects. */
    private static final class Dial extends ChannelInitializer<Channel> {
        volatile TcpConnection made;

        @Override
        protected void initChannel(Channel ch) {
            configure(ch);
            made = new TcpConnection(ch, null);
        }
    }

    /**
     * Reads into {@code dst} at least one byte, pausing until there is one; returns how many, or -1 at the end
     * of the stream (0 only if {@code dst} has no room).
     *
     * @throws ClosedChannelException if this connection is closed, before or while this waits
     * @throws IOException if the connection failed (reset by the peer, for one)
     * @throws CancelledException if the fiber is cancelled (the thread interrupted) while it waits: nothing was
     *     read, the bytes stay for the next read
     */
    @Pausable
    public int read(ByteBuffer dst) throws IOException {
        for (;;) {
            if (readReady || !dst.hasRemaining()) { // else it would wait: no lock for that
                synchronized (events) {
                    if (closed) {
                        throw new ClosedChannelException();
                    }
                    if (!dst.hasRemaining()) {
                        return 0;
                    }
                    if (!received.isEmpty()) {
                        return take(dst);
                    }
                    if (failure != null) {
                        throw new IOException(failure.getMessage(), failure);
                    }
                    if (ended) {
                        return -1;
                    }
                } // another reader took the bytes first
            }
            readable.await();
        }
    }

    /** Sets {@link #readReady} again after a change of what it sums up; under the lock. */
    private void readChanged() {
        readReady = closed || failure != null || ended || !received.isEmpty();
    }

    /**
     * Moves {@code n} bytes from {@code from} to {@code to}. Through a heap buffer's array where it has one: Netty's
     * copy from a {@code ByteBuffer} makes a view of its own buffer, an object a write.
     */
    private static void copy(ByteBuffer from, ByteBuf to, int n) {
        if (from.hasArray()) {
            to.writeBytes(from.array(), from.arrayOffset() + from.position(), n);
            from.position(from.position() + n);
        } else {
            int limit = from.limit();
            from.limit(from.position() + n);
            to.writeBytes(from);
            from.limit(limit);
        }
    }

    /** Moves buffered bytes into {@code dst}; under the lock. */
    private int take(ByteBuffer dst) {
        int total = 0;
        while (dst.hasRemaining() && !received.isEmpty()) {
            byte[] b = received.peek();
            int n = Math.min(b.length - takenOfFirst, dst.remaining());
            dst.put(b, takenOfFirst, n);
            total += n;
            takenOfFirst += n;
            if (takenOfFirst == b.length) {
                received.poll();
                takenOfFirst = 0;
            }
        }
        readChanged();
        return total;
    }

    /** Whether a read would not wait; if it would, asks the socket for bytes (once until they come). */
    private boolean readableNow() {
        if (readReady) {
            return true;
        }
        // Asked already: what it brings (bytes, the end, an error) comes with a signal after readReady is set.
        // It stops being asked only with bytes untaken or at the end, when readReady holds until a read.
        if (readRequested) {
            return false;
        }
        synchronized (events) {
            if (readReady) {
                return true;
            }
            if (readRequested || !channel.isActive()) { // closing: its last events are on their way
                return false;
            }
            readRequested = true;
        }
        loop().execute(askForBytes);
        return false;
    }

    /**
     * Asks the socket for bytes, on its loop, where the end of the stream is known without a race: Netty must
     * not be asked to read once the input is shut down (it fails the request and closes the socket).
     */
    private void askForBytes() {
        synchronized (events) {
            if (ended || closed || failure != null) {
                return;
            }
        }
        channel.read();
    }

    /**
     * Writes every byte of {@code src}, pausing while the peer does not take them: returns once all are handed
     * to the socket.
     *
     * @throws ClosedChannelException if this connection is closed (or its output shut down), before or while
     *     this waits
     * @throws IOException if the connection failed (reset by the peer, for one)
     * @throws CancelledException if the fiber is cancelled (the thread interrupted) while it waits: what was
     *     sent is {@code src.position()}, and the connection is closed (its stream would be torn)
     */
    @Pausable
    public void write(ByteBuffer src) throws IOException {
        for (;;) {
            if (closed || outputShut) {
                throw new ClosedChannelException();
            }
            IOException failed = failure;
            if (failed != null) {
                throw new IOException(failed.getMessage(), failed);
            }
            if (!channel.isActive()) {
                throw new IOException("the connection " + this + " is gone");
            }
            if (!src.hasRemaining()) {
                return;
            }
            if (channel.isWritable()) {
                EventLoop loop = loop();
                // To the socket now, on whichever carrier, unless another holds its loop (then queued, in order).
                boolean inline = SocketLoops.enter(loop);
                try {
                    if (inline) {
                        DirectSend.sendNow(channel, src);
                    }
                    if (src.hasRemaining()) { // the socket is full, or the bytes must queue behind others
                        int n = Math.min(src.remaining(), WRITE_PIECE);
                        ByteBuf piece = channel.alloc().directBuffer(n);
                        copy(src, piece, n);
                        channel.writeAndFlush(piece, channel.voidPromise());
                    }
                } finally {
                    SocketLoops.exit(loop, inline);
                }
                continue;
            }
            try {
                writable.await();
            } catch (CancelledException e) {
                close();
                throw e;
            }
        }
    }

    private boolean writableNow() {
        return closed || outputShut || failure != null || channel.isWritable() || !channel.isActive();
    }

    /** A guard, ready when {@link #read} would not pause: bytes, the end of the stream, an error, or closed. */
    public Guard readable() {
        return readable;
    }

    /**
     * Ends the output: the peer reads -1 after every byte written so far. Reading goes on. Later writes throw
     * {@link ClosedChannelException}; so does this after {@link #close()} (undeclared).
     */
    public void shutdownOutput() {
        synchronized (events) {
            if (closed) {
                throw Sneaky.<RuntimeException>rethrow(new ClosedChannelException());
            }
            if (outputShut) {
                return;
            }
            outputShut = true;
        }
        writable.signal();
        onItsLoop(() -> afterWrites(() -> ((DuplexChannel) channel).shutdownOutput()));
    }

    /** The address of this end. */
    public InetSocketAddress localAddress() {
        return local;
    }

    /** The address of the peer. */
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    /**
     * Closes this connection: a read or write waiting in another fiber or thread throws
     * {@link ClosedChannelException}, and so does every later operation. What was written before is still sent
     * (for at most {@value #CLOSE_FLUSH_SECONDS} s if the peer does not read), then the end of the stream.
     * Idempotent.
     */
    @Override
    public void close() {
        synchronized (events) {
            if (closed) {
                return;
            }
            closed = true;
            received.clear();
            takenOfFirst = 0;
            readChanged();
        }
        readable.signal();
        writable.signal();
        if (server != null) {
            server.forget(this);
        }
        onItsLoop(this::closeAfterWrites);
    }

    /**
     * Runs {@code op} on this connection's loop: now if this thread holds it or may take it, else as a task queued
     * behind what is queued there already (this connection's registration and writes among them). Not at all once
     * the loop has stopped: its carrier closed its channels as it stopped.
     */
    private void onItsLoop(Runnable op) {
        EventLoop at = loop();
        boolean entered = SocketLoops.enter(at);
        try {
            if (at.inEventLoop()) { // true once entered, as for a thread that held the loop already
                op.run();
            } else {
                at.execute(op);
            }
        } catch (RejectedExecutionException stopped) {
            channel.unsafe().closeForcibly(); // closed already by the loop's end (or never registered): no events
        } finally {
            SocketLoops.exit(at, entered);
        }
    }

    /** On the loop: closes the channel once what was written before is sent, or in {@value #CLOSE_FLUSH_SECONDS} s. */
    private void closeAfterWrites() {
        if (!channel.isActive()) {
            channel.close();
            return;
        }
        if (afterWrites(channel::close)) {
            return;
        }
        ScheduledFuture<?> deadline = loop().schedule(() -> channel.close(), CLOSE_FLUSH_SECONDS, TimeUnit.SECONDS);
        channel.closeFuture().addListener(f -> deadline.cancel(false));
    }

    /**
     * On the loop: runs {@code then} once every byte written before is handed to the socket, at once if none waits
     * (true then), else after an empty write queued behind them (false). At once is the common case, and it keeps
     * the empty buffer and its promise off the path of every write: their types, seen there when the first
     * connection closes, would throw away the compiled code of the write path (a type check that no longer holds)
     * and make it compile again.
     */
    private boolean afterWrites(Runnable then) {
        if (SocketLoops.nothingQueued(channel)) {
            then.run();
            return true;
        }
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> then.run());
        return false;
    }

    /** The Netty channel below, for tests that watch its events. */
    Channel channel() {
        return channel;
    }

    /** The bytes read from the socket and not yet taken by a reader: what a slow reader makes this side hold. */
    int receivedBytes() {
        synchronized (events) {
            int n = -takenOfFirst;
            for (byte[] b : received) {
                n += b.length;
            }
            return n;
        }
    }

    /** The bytes written and not yet taken by the socket: what a slow reader makes this side hold. */
    long queuedBytes() {
        ChannelOutboundBuffer queued = channel.unsafe().outboundBuffer();
        return queued == null ? 0 : queued.totalPendingWriteBytes();
    }

    @Override
    public String toString() {
        return "TcpConnection[" + local + " -> " + remote + "]";
    }

    /** What the socket's event loop tells this connection. */
    private final class Events extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            byte[] copy;
            try {
                copy = new byte[bytes.readableBytes()]; // out of the read's buffer, which the next read reuses
                bytes.readBytes(copy);
            } finally {
                bytes.release();
            }
            synchronized (this) {
                if (!closed && copy.length > 0) {
                    readerBehind |= !received.isEmpty();
                    received.add(copy);
                    readReady = true;
                }
            }
        }

        /**
         * Wakes the reader, and asks for the next bytes at once unless the reader is behind: asked from within
         * the read, the socket's interest in input stays registered (Netty clears it after a read that nobody
         * asked to follow). At the end of the stream this read comes before the news of it ({@link
         * #userEventTriggered}), and the request is harmless: Netty keeps the interest, and the socket has no
         * more to tell.
         */
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            boolean more;
            synchronized (this) {
                more = !readerBehind && !ended && !closed && failure == null;
                readRequested = more;
                readerBehind = false;
            }
            if (more) {
                ctx.read();
            }
            readable.signal();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt == ChannelInputShutdownEvent.INSTANCE) {
                synchronized (this) {
                    ended = true;
                    readChanged();
                }
                readable.signal();
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            writable.signal();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            synchronized (this) {
                ended = true;
                readChanged();
            }
            readable.signal();
            writable.signal();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            synchronized (this) {
                // An error on a socket that is closing (a read asked for as it closed) is no news to its reader.
                if (failure == null && !closed && ctx.channel().isActive()) {
                    failure = cause instanceof IOException ? (IOException) cause : new IOException(cause);
                    readChanged();
                }
            }
            ctx.close();
            readable.signal();
            writable.signal();
        }
    }
}
