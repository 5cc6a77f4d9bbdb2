package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * The link to another node. It keeps its identity while connections come and go during its making: its own
 * dial, and in a simultaneous connect the peer's, of which the handshake keeps exactly one. Frames queued
 * before then go out on the connection kept, after the handshake. Fields without {@code volatile} belong to
 * the event loop.
 */
final class PeerLink extends QueuedLink {
    /**
     * The size of a drain's buffer: once its frames fill it, it goes to the channel (unflushed) and a new one
     * starts, so a long drain never holds more than this beyond what it has handed over.
     */
    static final int BATCH_BYTES = 8 * 1024;
    /** This node's id for the link, unique in this run of the node: tells the peer a redial from a new link. */
    final long id;
    private final Links links;
    private volatile Connection connection;
    private Connection dial;
    private boolean dialling;
    private long peerIncarnation;
    private long peerLink;
    /** The protocol version spoken on the link, once up. */
    private volatile int version;
    /** Drains that wrote frames, and frames they wrote (only the loop writes them; tests read them). */
    private volatile long flushes;
    private volatile long framesWritten;
    /**
     * The frames of the drain under way, encoded one after the other (null if none yet). Between drains it is the
     * last drain's buffer, kept for the next one once the socket has taken all of it: a link allocates no buffer
     * per frame, nor per drain while the peer keeps up. On the loop.
     */
    private ByteBuf batch;

    PeerLink(Links links, NodeAddress peer, long id, boolean dialling) {
        super(peer, links.loop, links.listener, links.config.maxFrameBytes());
        this.links = links;
        this.id = id;
        this.dialling = dialling;
    }

    @Override
    boolean ready() {
        return connection != null;
    }

    @Override
    void write(Frame frame) {
        ChannelHandlerContext out = connection.frames();
        if (batch == null) {
            batch = out.alloc().ioBuffer(BATCH_BYTES);
        }
        FrameEncoder.encode(frame, batch);
        if (batch.readableBytes() >= BATCH_BYTES) {
            out.write(batch, out.voidPromise()); // the channel owns it now
            batch = null;
        }
    }

    @Override
    void flush(int frames) {
        flushes++; // first: the peer may have the frames before this method returns
        framesWritten += frames;
        ChannelHandlerContext out = connection.frames();
        ByteBuf pending = batch;
        if (pending == null) { // the last frame filled its buffer, which went out already
            out.flush();
            return;
        }
        out.writeAndFlush(pending.retain(), out.voidPromise());
        // Netty releases what the socket took (or could not send) at once: then only our reference is left and the
        // buffer serves the next drain. Bytes still waiting for the socket keep it: it is the channel's alone then.
        if (pending.refCnt() == 1) {
            pending.clear();
        } else {
            pending.release();
            batch = null;
        }
    }

    @Override
    void release(String toPeer) {
        if (batch != null) { // no drain writes after the loss: the buffer kept for the next one is not needed
            batch.release();
            batch = null;
        }
        links.forget(this);
        if (dial != null) {
            dial.close(toPeer);
        }
        if (connection != null && connection != dial) {
            connection.close(toPeer);
        }
    }

    /** Whether a connection has been kept for the link. */
    boolean isUp() {
        return connection != null;
    }

    @Override
    public boolean cameUp() {
        return isUp(); // the connection stays set once kept, also after the link is lost
    }

    /** Whether the link still counts on a connection it dials itself (in a simultaneous connect, the rule decides). */
    boolean isDialling() {
        return dialling && connection == null;
    }

    /** The peer's incarnation, once up. */
    long peerIncarnation() {
        return peerIncarnation;
    }

    /** The protocol version the link speaks, once up (see {@link Hello}). */
    int version() {
        return version;
    }

    /** The peer's id for the link, once up. */
    long peerLink() {
        return peerLink;
    }

    /** {@code c} is the connection this link dials. */
    void dialled(Connection c) {
        dial = c;
    }

    /**
     * The handshake kept {@code c} for this link: the peer at its other end said {@code peer} and calls the link
     * {@code peerLink}. From now on the link speaks the version they agreed on. Queued frames go out.
     */
    void up(Connection c, Hello peer, long peerLink) {
        Connection ours = dial;
        dial = null; // first: closing it may report its end at once, which must not lose the link
        if (ours != null && ours != c) {
            ours.close(null); // the peer's connection won a simultaneous connect: ours was never used
        }
        this.peerIncarnation = peer.incarnation();
        this.peerLink = peerLink;
        this.version = peer.version();
        if (peer.maxFrameBytes() > 0) {
            limitFrames(peer.maxFrameBytes(), "peer " + peer() + "'s");
        }
        connection = c;
        scheduleDrain();
    }

    /** The peer keeps another connection for this link (a simultaneous connect): wait for that one. */
    void redundant(Connection c) {
        if (c == dial) {
            dial = null;
            dialling = false;
        }
    }

    /** Connection {@code c} ended: the link is lost if it was counting on it. */
    void ended(Connection c, String why) {
        if (c == connection || c == dial) {
            lose(why, null);
        }
    }

    long flushes() {
        return flushes;
    }

    long framesWritten() {
        return framesWritten;
    }

    /** Bytes written to the connection but not yet to its socket (0 before the link is up; on the loop). */
    long pendingWriteBytes() {
        Connection c = connection;
        if (c == null || c.channel().unsafe().outboundBuffer() == null) {
            return 0;
        }
        return c.channel().unsafe().outboundBuffer().totalPendingWriteBytes();
    }

    /** The connection kept for the link, or null (for tests). */
    Connection connection() {
        return connection;
    }
}
