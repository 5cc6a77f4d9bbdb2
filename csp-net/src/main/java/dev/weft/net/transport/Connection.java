package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * One TCP connection between two nodes: its handshake, then the frames of the link it serves, heartbeats and
 * goodbyes. The handshake: both sides send a {@link Hello}; with a secret, both send a proof and check the
 * other's; then the side that accepted the connection answers {@link Control#ACCEPT} or
 * {@link Control#REDUNDANT} (see {@link Links#admit}). Until then nothing else is sent, nor delivered.
 * Lives on the event loop.
 */
final class Connection extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());
    private static final Frame PING = new Frame(Control.PING, 0, 0);
    private static final int MAX_WHY_CHARS = 200;

    private enum State { HELLO, PROOF, VERDICT, UP, CLOSED }

    private final Links links;
    /** The link served: from the start when this node dials, once admitted when it accepts. */
    private PeerLink link;
    private final boolean dialling;
    private Channel channel;
    private State state = State.HELLO;
    private Hello mine;
    private Hello theirs;
    private String why;
    private ScheduledFuture<?> handshakeTimer;
    private ScheduledFuture<?> heartbeat;
    /** Where our output stood at the last look, while we do not read (see {@link #outputMoved}). */
    private Object lastWriting;
    private long lastWritten;

    /** A connection to accept ({@code dialling} null), or to dial for {@code dialling}. */
    Connection(Links links, PeerLink dialling) {
        this.links = links;
        this.link = dialling;
        this.dialling = dialling != null;
    }

    Channel channel() {
        return channel;
    }

    /** The address this connection dials. */
    NodeAddress dialledPeer() {
        return link.peer();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel(); // before the connect: a link lost meanwhile can close it
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        mine = Hello.of(links.self(), links.incarnation, dialling ? link.id : 0, links.secret != null,
                links.config.maxFrameBytes());
        ctx.writeAndFlush(mine.frame());
        handshakeTimer = ctx.executor().schedule(
                () -> fail("no handshake from " + who() + " within " + Links.seconds(links.config.heartbeatTimeout())),
                links.config.heartbeatTimeout().toMillis(), TimeUnit.MILLISECONDS);
        // A ping every interval, whatever else is sent: watching for quiet writes would put a listener on every
        // write's promise, which a busy link pays for on each frame.
        long every = links.config.heartbeatInterval().toMillis();
        heartbeat = ctx.executor().scheduleAtFixedRate(() -> {
            if (state == State.UP) {
                channel.writeAndFlush(PING, channel.voidPromise());
            }
        }, every, every, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame frame = (Frame) msg;
        try {
            switch (state) {
                case HELLO -> hello(Hello.read(frame));
                case PROOF -> proof(frame);
                case VERDICT -> verdict(frame);
                case UP -> up(frame);
                case CLOSED -> { } // the rest of a read that came in before we closed
            }
        } catch (Hello.VersionMismatch e) {
            String why = who() + " " + e.getMessage();
            LOG.log(System.Logger.Level.WARNING, why);
            this.why = why;
            close(why); // the peer hears both versions too
        } catch (ProtocolException e) {
            fail(who() + " " + e.getMessage());
        }
    }

    private void hello(Hello hello) throws ProtocolException {
        theirs = hello;
        if (hello.incarnation() == links.incarnation || hello.address().equals(links.self())) {
            throw new ProtocolException("is this node itself (its own address gives an in-process link)");
        }
        if (dialling && !hello.address().equals(link.peer())) {
            throw new ProtocolException("answered as " + hello.address() + ": dial a node by the address it listens on");
        }
        if (hello.secret() != (links.secret != null)) {
            throw new ProtocolException(links.secret != null ? "has no secret, and this node requires one"
                    : "requires a secret, and this node has none");
        }
        if (links.secret == null) {
            handshaken();
        } else {
            state = State.PROOF;
            channel.writeAndFlush(new Frame(Control.PROOF, 0, 0, links.secret.proof(mine, theirs)));
        }
    }

    private void proof(Frame frame) throws ProtocolException {
        if (frame.type() != Control.PROOF) {
            throw new ProtocolException("sent " + Control.name(frame.type()) + " instead of proving it knows the secret");
        }
        if (!links.secret.verify(frame.payload(), theirs, mine)) {
            throw new ProtocolException("does not know this node's secret (its proof is wrong)");
        }
        handshaken();
    }

    private void handshaken() {
        handshakeTimer.cancel(false);
        if (links.isClosed()) {
            fail("this node is closing");
            return;
        }
        if (dialling) {
            state = State.VERDICT;
            return;
        }
        link = links.admit(theirs);
        if (link == null) {
            state = State.CLOSED;
            channel.writeAndFlush(new Frame(Control.REDUNDANT, 0, 0)).addListener(ChannelFutureListener.CLOSE);
        } else {
            state = State.UP;
            channel.writeAndFlush(new Frame(Control.ACCEPT, 0, link.id));
            link.up(this, theirs, theirs.link());
        }
    }

    private void verdict(Frame frame) throws ProtocolException {
        if (frame.type() == Control.ACCEPT) {
            state = State.UP;
            link.up(this, theirs, frame.number());
        } else if (frame.type() == Control.REDUNDANT) {
            link.redundant(this);
            state = State.CLOSED;
            channel.close();
        } else {
            throw new ProtocolException("sent " + Control.name(frame.type()) + " instead of accepting the connection");
        }
    }

    private void up(Frame frame) {
        if (frame.type() >= Frame.FIRST_CHANNEL_TYPE) {
            link.deliver(frame);
        } else if (frame.type() == Control.GOODBYE) {
            String reason = new String(frame.payload(), StandardCharsets.UTF_8);
            link.lose(who() + (reason.isEmpty() ? " closed" : " closed the link: " + reason), null, reason.isEmpty());
        } else if (frame.type() != Control.PING) {
            link.refuse(who() + " sent " + Control.name(frame.type()) + " on a live link");
        }
    }

    /**
     * While this node does not read from the peer (backpressure: the peer takes our bytes more slowly than we send
     * them), the peer's heartbeats wait unread; our bytes still leaving show it alive then. Marks where our output
     * stands, to tell at the next silence whether it moved.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!channel.isWritable()) {
            outputMoved();
        }
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * Whether a byte of ours left for the socket since the last call: the message being written, or how much of it
     * is written, changed (Netty's own test, as {@code IdleStateHandler}'s {@code observeOutput}).
     */
    private boolean outputMoved() {
        ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
        if (out == null) {
            return false;
        }
        Object writing = out.current();
        long written = out.currentProgress();
        boolean moved = writing != lastWriting || written != lastWritten;
        lastWriting = writing;
        lastWritten = written;
        return moved;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent idle && state == State.UP) {
            // Silence: not a byte from the peer for the timeout (the watch sits below the framing); while we do not
            // read, also none of ours leaving. A peer gone stops both.
            if (idle.state() == IdleState.READER_IDLE && (channel.config().isAutoRead() || !outputMoved())) {
                String time = Links.seconds(links.config.heartbeatTimeout());
                fail(channel.config().isAutoRead() ? "no heartbeat from " + link.peer() + " for " + time
                        : who() + " has not read what this node sent for " + time);
            }
        } else if (event instanceof SslHandshakeCompletionEvent tls && !tls.isSuccess()) {
            fail("TLS with " + who() + " failed: " + brief(tls.cause()));
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof TooLongFrameException) {
            // Before a handshake, a TLS record read as a length prefix looks like this.
            String hint = state != State.UP && links.clientTls == null ? " (does it use TLS?)" : "";
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
        if (state == State.UP) {
            link.refuse(why);
        } else {
            fail(why);
        }
    }

    /** Closes the connection, without a goodbye, because of {@code why}. */
    private void fail(String why) {
        if (this.why == null) {
            this.why = why;
        }
        state = State.CLOSED;
        channel.close();
    }

    /** Closes the connection for its link, telling the peer {@code toPeer} in a goodbye if not null. */
    void close(String toPeer) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        if (toPeer != null && channel != null && channel.isActive()) {
            channel.writeAndFlush(new Frame(Control.GOODBYE, 0, 0, toPeer.getBytes(StandardCharsets.UTF_8)))
                    .addListener(ChannelFutureListener.CLOSE);
        } else if (channel != null) {
            channel.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
        }
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
        String ended = why != null ? why
                : state == State.UP ? "connection to " + who() + " closed without a goodbye"
                : who() + " closed the connection during the handshake";
        state = State.CLOSED;
        if (link != null) {
            link.ended(this, ended);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "no link made: {0}", ended);
        }
        ctx.fireChannelInactive();
    }

    /** The peer, for messages: its address once known, else where it connected from. */
    private String who() {
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
