package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLException;

/**
 * One TCP connection between two nodes, as its link sees it: the last handler of its pipeline. The
 * {@link Handshake} before it takes every frame until the link is up, then leaves the pipeline (to a
 * {@link Heartbeat}); from then on this delivers the link's frames and the peer's goodbye, and refuses what
 * breaks the protocol. Whatever ends the connection, at any stage, ends here: it tells the link with the first
 * reason it learnt. Lives on the event loop.
 */
final class Connection extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());
    private static final int MAX_WHY_CHARS = 200;

    private final Links links;
    /** The link served: from the start when this node dials, once admitted when it accepts. */
    private PeerLink link;
    private final boolean dialling;
    private Channel channel;
    /**
     * Where the link's encoded frames enter the pipeline once up: the encoder's place, so that they pass only the
     * handlers below it (TLS, the watch for silence), none of which the handlers above it would have touched.
     */
    private ChannelHandlerContext frames;
    /** The peer's hello, once heard (for messages, before the link is known). */
    private Hello theirs;
    private boolean up;
    private boolean closed;
    private String why;

    /** A connection to accept ({@code dialling} null), or to dial for {@code dialling}. */
    Connection(Links links, PeerLink dialling) {
        this.links = links;
        this.link = dialling;
        this.dialling = dialling != null;
    }

    Channel channel() {
        return channel;
    }

    /** Where the link writes its encoded frames, once up (see {@link #frames}; on the event loop). */
    ChannelHandlerContext frames() {
        return frames;
    }

    /** The address this connection dials. */
    NodeAddress dialledPeer() {
        return link.peer();
    }

    /** Whether this node dialled the connection. */
    boolean dialling() {
        return dialling;
    }

    /** The link this connection dials (null for one it accepts, until admitted). */
    PeerLink link() {
        return link;
    }

    /** Whether the link is up on this connection and the connection not closing. */
    boolean isUp() {
        return up && !closed;
    }

    /** Whether the connection is closing: frames still in a read are dropped. */
    boolean isClosed() {
        return closed;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel(); // before the connect: a link lost meanwhile can close it
    }

    /** The peer said {@code hello} (the handshake goes on). */
    void heard(Hello hello) {
        theirs = hello;
    }

    /**
     * The handshake is done: {@code served} is up on this connection, the peer calling it {@code peerLink}. Queued
     * frames go out; frames from the peer come here from now on.
     */
    void up(PeerLink served, long peerLink) {
        link = served;
        frames = channel.pipeline().context(FrameEncoder.class);
        up = true;
        served.up(this, theirs, peerLink);
    }

    /**
     * A channel-layer frame, by its parts, from the {@link FrameDecoder}, which hands them here only while
     * {@link #isUp()}: to the link.
     */
    void deliver(byte type, long channel, long number, byte[] payload) {
        link.deliver(type, channel, number, payload);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closed) {
            return; // the rest of a read that came in before we closed
        }
        Frame frame = (Frame) msg;
        if (frame.type() >= Frame.FIRST_CHANNEL_TYPE) {
            link.deliver(frame);
        } else if (frame.type() == Control.GOODBYE) {
            String reason = new String(frame.payload(), StandardCharsets.UTF_8);
            link.lose(who() + (reason.isEmpty() ? " closed" : " closed the link: " + reason), null, reason.isEmpty());
        } else if (frame.type() != Control.PING) {
            link.refuse(who() + " sent " + Control.name(frame.type()) + " on a live link");
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent tls && !tls.isSuccess()) {
            fail("TLS with " + who() + " failed: " + brief(tls.cause()));
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof TooLongFrameException) {
            // Before a handshake, a TLS record read as a length prefix looks like this.
            String hint = !isUp() && links.clientTls == null ? " (does it use TLS?)" : "";
            refuse(who() + " sent a frame longer than maxFrameBytes " + links.config.maxFrameBytes() + hint);
        } else if (c instanceof CorruptedFrameException) {
            refuse(who() + " sent a corrupt frame: " + brief(c));
        } else if (c instanceof SSLException) {
            fail("TLS with " + who() + " failed: " + brief(c));
        } else {
            fail("connection to " + who() + " failed: " + brief(c));
        }
    }

    /** The peer broke the protocol: a live link is refused (the peer hears why), anything else closed. */
    private void refuse(String why) {
        if (isUp()) {
            link.refuse(why);
        } else {
            fail(why);
        }
    }

    /** Closes the connection, without a goodbye, because of {@code why}; one already closing ends as it was going to. */
    void fail(String why) {
        if (this.why == null) {
            this.why = why;
        }
        if (!closed) { // else closed, or lingering after a last word within its bound: a failure must not cut that short
            closed = true;
            channel.close();
        }
    }

    /** Closes the connection because the peers cannot link: {@code why} is the reason and the goodbye's. */
    void refuseLink(String why) {
        this.why = why;
        close(why);
    }

    /** Closes the connection, unused, once {@code last} (if not null) is sent. */
    void drop(Frame last) {
        closed = true;
        if (last == null) {
            channel.close();
        } else {
            Linger.close(channel, last, links.lingering);
        }
    }

    /**
     * Closes the connection for its link, telling the peer {@code toPeer} in a goodbye if not null: then the
     * connection {@link Linger lingers} until the peer has read it, however much the peer was still sending.
     */
    void close(String toPeer) {
        if (closed) {
            return;
        }
        closed = true;
        if (toPeer != null && channel != null && channel.isActive()) {
            Linger.close(channel, new Frame(Control.GOODBYE, 0, 0, toPeer.getBytes(StandardCharsets.UTF_8)), links.lingering);
        } else if (channel != null) {
            channel.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        String ended = why != null ? why
                : isUp() ? "connection to " + who() + " closed without a goodbye"
                : who() + " closed the connection during the handshake";
        closed = true;
        if (link != null) {
            link.ended(this, ended);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "no link made: {0}", ended);
        }
        ctx.fireChannelInactive();
    }

    /** The peer, for messages: its address once known, else where it connected from. */
    String who() {
        if (link != null) {
            return "peer " + link.peer();
        }
        if (theirs != null) {
            return "peer " + theirs.address();
        }
        return "peer at " + (channel == null ? "?" : channel.remoteAddress());
    }

    /** An exception's message, short enough for a why. */
    static String brief(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.length() <= MAX_WHY_CHARS ? m : m.substring(0, MAX_WHY_CHARS) + "...";
    }
}
