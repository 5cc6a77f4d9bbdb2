package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.NetUtil;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's links to other nodes, one per peer, and the rules for making them: {@link #get} dials a peer that has
 * no live link; {@link #admit} decides, for a connection the peer dialled, which link it serves, if any.
 */
final class Links {
    final TransportConfig config;
    final LinkListener listener;
    final EventLoop loop;
    /** This run of the node: a restarted node at the same address is a new peer. */
    final long incarnation = nonZero(new SecureRandom().nextLong());
    /** The network's secret, or null. */
    final Secret secret;
    final SslContext clientTls;
    private final Bootstrap dialler;
    private final Executor lookups;
    private final ConcurrentHashMap<NodeAddress, PeerLink> links = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();
    /** Connections that said their last word and wait for the peer to read it ({@link Linger}); each leaves as it closes. */
    final ChannelGroup lingering;
    /** Connections dropped because another one serves the same link (observed by tests). */
    final AtomicInteger redundant = new AtomicInteger();
    private volatile NodeAddress self;
    private volatile boolean closed;

    /**
     * @param dialler a bootstrap for this node's outgoing connections, without handler
     * @param lookups where host names are looked up, off the event loop
     */
    Links(TransportConfig config, LinkListener listener, EventLoop loop, SslContext clientTls, Bootstrap dialler, Executor lookups) {
        this.config = config;
        this.listener = listener;
        this.loop = loop;
        this.secret = config.secret() == null ? null : new Secret(config.secret());
        this.clientTls = clientTls;
        this.dialler = dialler;
        this.lookups = lookups;
        this.lingering = new DefaultChannelGroup("weft-lingering", loop);
    }

    private static long nonZero(long n) {
        return n == 0 ? 1 : n;
    }

    /** This node's address, set once it listens and before it accepts anything. */
    void self(NodeAddress address) {
        self = address;
    }

    NodeAddress self() {
        return self;
    }

    /** The live link to {@code peer}, or a new one being dialled (any thread). */
    PeerLink get(NodeAddress peer) {
        PeerLink[] made = new PeerLink[1];
        PeerLink link = links.compute(peer, (k, v) -> v != null && !v.isLost() ? v : (made[0] = newLink(k, true)));
        if (made[0] != null) {
            try {
                loop.execute(() -> dial(made[0]));
            } catch (RejectedExecutionException e) {
                links.remove(peer, made[0]);
                throw new IllegalStateException("this node is closed");
            }
        }
        return link;
    }

    private PeerLink newLink(NodeAddress peer, boolean dialling) {
        return new PeerLink(this, peer, nextId.incrementAndGet(), dialling);
    }

    private void dial(PeerLink link) {
        if (closed) {
            link.lose(Transport.CLOSED, null);
            return;
        }
        if (!link.isDialling() || link.isLost()) {
            return; // the peer's own connection was admitted meanwhile
        }
        loop.schedule(() -> {
            if (!link.isUp()) {
                link.lose("could not link to " + link.peer() + " within " + seconds(config.heartbeatTimeout()), "");
            }
        }, config.heartbeatTimeout().toMillis(), TimeUnit.MILLISECONDS);
        String host = link.peer().host();
        InetAddress literal = NetUtil.createInetAddressFromIpAddressString(host);
        if (literal != null) {
            connect(link, literal);
            return;
        }
        try {
            lookups.execute(() -> { // a name lookup may block: never on the event loop
                try {
                    InetAddress address = InetAddress.getByName(host);
                    loop.execute(() -> connect(link, address));
                } catch (UnknownHostException e) {
                    link.lose("cannot connect to " + link.peer() + ": unknown host " + host, null);
                } catch (RejectedExecutionException e) {
                    // The node closed meanwhile, and lost the link.
                }
            });
        } catch (RejectedExecutionException e) {
            link.lose(Transport.CLOSED, null);
        }
    }

    private void connect(PeerLink link, InetAddress address) {
        if (link.isLost()) {
            return;
        }
        Connection connection = new Connection(this, link);
        link.dialled(connection);
        ChannelFuture connected = dialler.clone().handler(new Pipeline(this, clientTls, connection))
                .connect(new InetSocketAddress(address, link.peer().port()));
        connected.addListener(f -> {
            if (!f.isSuccess()) {
                link.ended(connection, "cannot connect to " + link.peer() + ": " + Connection.brief(f.cause()));
            }
        });
    }

    /**
     * Decides which link a connection dialled by the peer that sent {@code hello} serves, once its handshake is
     * done (on the loop): null if the connection is redundant because another one serves the link. In a
     * simultaneous connect both nodes see both connections, and both keep the one dialled by the node whose
     * address is the smaller string; a link already up keeps its connection while the peer's link and run are
     * the same; a new run or a new link of the peer replaces it.
     */
    PeerLink admit(Hello hello) {
        NodeAddress peer = hello.address();
        for (;;) {
            PeerLink link = links.get(peer);
            if (link == null || link.isLost()) {
                PeerLink fresh = newLink(peer, false);
                if (link == null ? links.putIfAbsent(peer, fresh) == null : links.replace(peer, link, fresh)) {
                    return fresh;
                }
            } else if (link.isUp()) {
                if (link.peerIncarnation() == hello.incarnation() && link.peerLink() == hello.link()) {
                    redundant.incrementAndGet();
                    return null; // the peer's own dial, overtaken by the connection we keep
                }
                String why = link.peerIncarnation() != hello.incarnation() ? "peer " + peer + " restarted"
                        : "peer " + peer + " dropped the link and dialled a new one";
                link.lose(why, why);
            } else if (link.isDialling() && self.toString().compareTo(peer.toString()) < 0) {
                redundant.incrementAndGet();
                return null; // both dial: ours wins
            } else {
                return link; // both dial and theirs wins, or ours was redundant
            }
        }
    }

    /** {@code link} is lost: a later {@link #get} makes a new one (on the loop). */
    void forget(PeerLink link) {
        links.remove(link.peer(), link);
    }

    boolean isClosed() {
        return closed;
    }

    /** Loses every link because this node closes (on the loop). */
    void closeAll() {
        closed = true;
        for (PeerLink link : List.copyOf(links.values())) {
            link.lose(Transport.CLOSED, "");
        }
    }

    /** The live link to {@code peer}, or null (for tests). */
    PeerLink find(NodeAddress peer) {
        PeerLink link = links.get(peer);
        return link == null || link.isLost() ? null : link;
    }

    /** {@code d} in seconds, for messages: 0.3s, 10s. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
    }
}
