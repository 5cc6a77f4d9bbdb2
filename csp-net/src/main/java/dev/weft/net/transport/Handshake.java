package dev.weft.net.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.ProtocolException;
import java.util.concurrent.TimeUnit;

/**
 * The start of a connection: both sides send a {@link Hello}; with a secret, both send a proof and check the
 * other's; then the side that accepted the connection answers {@link Control#ACCEPT} or
 * {@link Control#REDUNDANT} (see {@link Links#admit}). Until then it takes every frame, so nothing else is
 * delivered; once the link is up it hands its place in the pipeline to a {@link Heartbeat}, and the frames that
 * follow (the rest of the same read included) go to the {@link Connection}. Lives on the event loop.
 */
final class Handshake extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());

    private enum Step { HELLO, PROOF, VERDICT }

    private final Links links;
    private final Connection connection;
    private Step step = Step.HELLO;
    private Hello mine;
    private Hello theirs;
    private ScheduledFuture<?> timer;

    Handshake(Links links, Connection connection) {
        this.links = links;
        this.connection = connection;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        mine = Hello.of(links.self(), links.incarnation, connection.dialling() ? connection.link().id : 0,
                links.secret != null, links.config.maxFrameBytes());
        ctx.writeAndFlush(mine.frame());
        timer = ctx.executor().schedule(() -> connection.fail("no handshake from " + connection.who() + " within "
                        + Links.seconds(links.config.heartbeatTimeout())),
                links.config.heartbeatTimeout().toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (connection.isClosed()) {
            return; // the rest of a read that came in before the connection closed
        }
        Frame frame = (Frame) msg;
        try {
            switch (step) {
                case HELLO -> hello(ctx, Hello.read(frame));
                case PROOF -> proof(ctx, frame);
                case VERDICT -> verdict(ctx, frame);
            }
        } catch (Hello.VersionMismatch e) {
            String why = connection.who() + " " + e.getMessage();
            LOG.log(System.Logger.Level.WARNING, why);
            connection.refuseLink(why); // the peer hears both versions too
        } catch (ProtocolException e) {
            connection.fail(connection.who() + " " + e.getMessage());
        }
    }

    private void hello(ChannelHandlerContext ctx, Hello hello) throws ProtocolException {
        theirs = hello;
        connection.heard(hello);
        if (hello.incarnation() == links.incarnation || hello.address().equals(links.self())) {
            throw new ProtocolException("is this node itself (its own address gives an in-process link)");
        }
        if (connection.dialling() && !hello.address().equals(connection.link().peer())) {
            throw new ProtocolException("answered as " + hello.address() + ": dial a node by the address it listens on");
        }
        if (hello.secret() != (links.secret != null)) {
            throw new ProtocolException(links.secret != null ? "has no secret, and this node requires one"
                    : "requires a secret, and this node has none");
        }
        if (links.secret == null) {
            handshaken(ctx);
        } else {
            step = Step.PROOF;
            ctx.writeAndFlush(new Frame(Control.PROOF, 0, 0, links.secret.proof(mine, theirs)));
        }
    }

    private void proof(ChannelHandlerContext ctx, Frame frame) throws ProtocolException {
        if (frame.type() != Control.PROOF) {
            throw new ProtocolException("sent " + Control.name(frame.type()) + " instead of proving it knows the secret");
        }
        if (!links.secret.verify(frame.payload(), theirs, mine)) {
            throw new ProtocolException("does not know this node's secret (its proof is wrong)");
        }
        handshaken(ctx);
    }

    private void handshaken(ChannelHandlerContext ctx) {
        timer.cancel(false);
        if (links.isClosed()) {
            connection.fail("this node is closing");
            return;
        }
        if (connection.dialling()) {
            step = Step.VERDICT;
            return;
        }
        PeerLink link = links.admit(theirs);
        if (link == null) {
            connection.drop(new Frame(Control.REDUNDANT, 0, 0));
        } else {
            ctx.writeAndFlush(new Frame(Control.ACCEPT, 0, link.id));
            done(ctx, link, theirs.link());
        }
    }

    private void verdict(ChannelHandlerContext ctx, Frame frame) throws ProtocolException {
        if (frame.type() == Control.ACCEPT) {
            done(ctx, connection.link(), frame.number());
        } else if (frame.type() == Control.REDUNDANT) {
            connection.link().redundant(connection);
            connection.drop(null);
        } else {
            throw new ProtocolException("sent " + Control.name(frame.type()) + " instead of accepting the connection");
        }
    }

    /** The link is up: this handler leaves, the heartbeat takes its place, and frames go to the connection. */
    private void done(ChannelHandlerContext ctx, PeerLink link, long peerLink) {
        ctx.pipeline().replace(this, "heartbeat", new Heartbeat(links.config, connection));
        connection.up(link, peerLink);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
        }
        ctx.fireChannelInactive();
    }
}
