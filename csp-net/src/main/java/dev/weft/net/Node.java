package dev.weft.net;

import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.net.codec.KryoCodec;
import dev.weft.net.internal.BarrierCoordinator;
import dev.weft.net.internal.NodeEnds;
import dev.weft.net.poll.CarrierLoops;
import dev.weft.net.transport.Transport;
import dev.weft.net.transport.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * A JVM's place in a network of processes: it listens on one address, keeps one link to each node it talks
 * to (every channel between the two multiplexed over it), and makes net channel ends. A net end is an
 * ordinary channel input or output: a process does not know whether its channel is local or networked.
 *
 * <pre>{@code
 * try (Node node = Node.builder().nameServer(NodeAddress.parse("10.0.0.1:7000")).start()) {
 *     NetChannelInput<String> in = node.net2one("greetings");   // registered at the name server
 *     String first = in.read();
 * }
 * }</pre>
 *
 * Writes are synchronous across the network: a write on a synchronous net channel returns once the remote
 * reader has taken the value. When a link breaks, every end that used it fails with
 * {@link LinkLostException} within the heartbeat timeout. Values are copied by the node's {@link Codec}.
 */
public final class Node implements AutoCloseable {
    private final Transport transport;
    private final NodeEnds ends;
    private final Duration answerWait;
    private volatile boolean closed;

    private Node(Builder b) {
        Codec codec = b.codec != null ? b.codec : new KryoCodec(b.allowed.toArray(new Class<?>[0]));
        ends = new NodeEnds(codec, b.serveNames, b.nameServer);
        answerWait = b.heartbeatTimeout.multipliedBy(2);
        CarrierLoops carriers = b.scheduler != null ? CarrierLoops.of(b.scheduler) : CarrierLoops.ofCurrentCarrier();
        transport = Transport.start(new TransportConfig(b.host, b.port, b.secret, b.tls, b.heartbeatInterval,
                b.heartbeatTimeout, b.maxFrameBytes), ends.listener(), carriers);
        ends.start(transport);
    }

    /** A builder of a node; its defaults listen on 127.0.0.1, on a free port, with no name server. */
    public static Builder builder() {
        return new Builder();
    }

    /** A node with the builder's defaults: 127.0.0.1, a free port. */
    public static Node start() {
        return builder().start();
    }

    /** Where this node listens: its identity for other nodes. */
    public NodeAddress address() {
        return transport.address();
    }

    /** A synchronous net input read on this node: a remote write returns once this end's read took it. */
    public <T> NetChannelInput<T> net2one() {
        checkOpen();
        return ends.net2one(0);
    }

    /**
     * A buffered net input: a remote write returns once its value is in this end's buffer; each writer has
     * at most {@code capacity} values in flight, so a slow reader never makes a node buffer without bound.
     *
     * @throws IllegalArgumentException if capacity is not positive
     */
    public <T> NetChannelInput<T> net2one(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be at least 0, got " + capacity);
        }
        checkOpen();
        return ends.net2one(capacity);
    }

    /** A synchronous net input that any number of local processes may read. */
    public <T> NetSharedChannelInput<T> net2any() {
        checkOpen();
        return ends.net2any();
    }

    /** An output to the net input at {@code at} (on any node, this one included); it connects on first use. */
    public <T> NetChannelOutput<T> one2net(NetChannelLocation at) {
        checkOutput(at);
        return ends.one2net(at);
    }

    /** An output to the net input at {@code at} that any number of local processes may write to. */
    public <T> NetSharedChannelOutput<T> any2net(NetChannelLocation at) {
        checkOutput(at);
        return ends.any2net(at);
    }

    private void checkOutput(NetChannelLocation at) {
        Objects.requireNonNull(at, "a location is needed");
        checkOpen();
    }

    /**
     * A synchronous net input registered under {@code name} at the name server. The registration is one round
     * trip to the name server, which pauses a fiber (its carrier goes on) and blocks a thread; a name server
     * that is not up yet is asked again for up to twice the heartbeat timeout.
     *
     * @throws IllegalStateException if the name is taken, or this node has no name server
     * @throws LinkLostException     if the name server could not be reached, or did not answer, in that time
     */
    @Pausable
    public <T> NetChannelInput<T> net2one(String name) {
        checkOpen();
        return ends.net2one(name, answerWait);
    }

    /** An output to the net input registered under {@code name}, waiting until the name is registered. */
    @Pausable
    public <T> NetChannelOutput<T> one2net(String name) {
        return one2net(name, Duration.ofSeconds(Long.MAX_VALUE));
    }

    /**
     * An output to the net input registered under {@code name}, waiting at most {@code max} for the name. A
     * name server that cannot be reached yet is asked again while {@code max} lasts: nodes may start in any
     * order.
     *
     * @throws NameNotFoundException if the name is not registered within {@code max}
     * @throws LinkLostException     if the name server closed, or could not be reached within {@code max}
     */
    @Pausable
    public <T> NetChannelOutput<T> one2net(String name, Duration max) {
        return one2net(ends.resolve(name, max));
    }

    /** The server end of a connection that clients on any node reach with {@link #connectionClient}. */
    public <Q, R> NetConnectionServer<Q, R> connectionServer() {
        checkOpen();
        return ends.connectionServer();
    }

    /** A connection server registered under {@code name} at the name server (see {@link #net2one(String)}). */
    @Pausable
    public <Q, R> NetConnectionServer<Q, R> connectionServer(String name) {
        checkOpen();
        return ends.connectionServer(name, answerWait);
    }

    /** A client of the connection server at {@code at}; any number of processes may share it. */
    public <Q, R> ConnectionClient<Q, R> connectionClient(NetChannelLocation at) {
        checkOutput(at);
        return ends.connectionClient(at);
    }

    /** A client of the connection server registered under {@code name}, waiting until it is registered. */
    @Pausable
    public <Q, R> ConnectionClient<Q, R> connectionClient(String name) {
        return connectionClient(name, Duration.ofSeconds(Long.MAX_VALUE));
    }

    /**
     * A client of the connection server registered under {@code name}, waiting at most {@code max} for the name;
     * a name server that cannot be reached yet is asked again while {@code max} lasts (as {@link #one2net(String,
     * Duration)}).
     *
     * @throws NameNotFoundException if the name is not registered within {@code max}
     * @throws LinkLostException     if the name server closed, or could not be reached within {@code max}
     */
    @Pausable
    public <Q, R> ConnectionClient<Q, R> connectionClient(String name, Duration max) {
        return connectionClient(ends.resolve(name, max));
    }

    /**
     * Makes the net barrier {@code name}, its coordinator on this node, registered under {@code name} at the
     * name server, with {@code localParties} parties enrolled on this node. Other nodes take part with
     * {@link #connectBarrier}; no round completes before {@code nodes} nodes (this one included) have joined.
     *
     * @throws IllegalStateException    if the name is taken, or this node has no name server
     * @throws IllegalArgumentException if {@code nodes} is not positive or {@code localParties} is negative
     */
    @Pausable
    public NetBarrier netBarrier(String name, int nodes, int localParties) {
        if (nodes < 1) {
            throw new IllegalArgumentException("a barrier spans at least its own node, got " + nodes + " nodes");
        }
        NetBarrier.checkParties(localParties);
        NetChannelInput<String> news = net2one(name);
        BarrierCoordinator.start(this, name, nodes, news);
        return NetBarrier.join(this, name, one2net(news.location()), localParties);
    }

    /**
     * Takes part in the net barrier registered under {@code name} (waiting until it is), with
     * {@code localParties} parties enrolled on this node.
     */
    @Pausable
    public NetBarrier connectBarrier(String name, int localParties) {
        return NetBarrier.join(this, name, one2net(name), localParties);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("node " + address() + " is closed");
        }
    }

    /**
     * Poisons every net end of this node, tells its peers (their ends to this node fail), drops its names and
     * closes its links. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ends.close(new PoisonException("node " + address() + " is closed"));
        transport.close();
    }

    /** The transport under this node, for tests that count what it puts on the wire. */
    Transport transport() {
        return transport;
    }

    @Override
    public String toString() {
        return "node " + address();
    }

    /** How a node is made: where it listens, its name server, its codec and its security. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private boolean serveNames;
        private NodeAddress nameServer;
        private final List<Class<?>> allowed = new ArrayList<>();
        private Codec codec;
        private String secret;
        private SSLContext tls;
        private Duration heartbeatInterval = Duration.ofSeconds(1);
        private Duration heartbeatTimeout = Duration.ofSeconds(5);
        private int maxFrameBytes = 16 << 20;
        private Scheduler scheduler;

        private Builder() {
        }

        /** Listen on {@code host} and {@code port} (0: a free port). */
        public Builder bind(String host, int port) {
            NodeAddress checked = new NodeAddress(host, port);
            this.host = checked.host();
            this.port = checked.port();
            return this;
        }

        /** This node is a name server (and uses itself as one). */
        public Builder serveNames() {
            this.serveNames = true;
            return this;
        }

        /** The name server this node uses. */
        public Builder nameServer(NodeAddress at) {
            this.nameServer = Objects.requireNonNull(at, "a name server address is needed");
            return this;
        }

        /**
         * Types the default codec may send and build, beyond boxed primitives, strings, primitive arrays and
         * channel locations: records and plain classes whose fields are of allowed types.
         */
        public Builder allow(Class<?>... types) {
            for (Class<?> t : Objects.requireNonNull(types, "types")) {
                allowed.add(Objects.requireNonNull(t, "a type to allow is null"));
            }
            return this;
        }

        /** Replaces the default codec ({@link KryoCodec} of the allowed types). */
        public Builder codec(Codec c) {
            this.codec = Objects.requireNonNull(c, "codec");
            return this;
        }

        /** Links must prove they know {@code shared} (challenge-response; the secret never crosses the wire). */
        public Builder secret(String shared) {
            if (shared == null || shared.isEmpty()) {
                throw new IllegalArgumentException("a secret must not be empty");
            }
            this.secret = shared;
            return this;
        }

        /** Links run over TLS with this context (both ends need one). */
        public Builder tls(SSLContext ctx) {
            this.tls = Objects.requireNonNull(ctx, "an SSLContext is needed");
            return this;
        }

        /**
         * Send a heartbeat when a link has been quiet for {@code interval}; a link silent for {@code timeout} is
         * lost. Defaults: 1 s and 5 s.
         */
        public Builder heartbeat(Duration interval, Duration timeout) {
            if (interval == null || timeout == null || interval.isNegative() || interval.isZero()
                    || timeout.compareTo(interval) <= 0) {
                throw new IllegalArgumentException("a heartbeat needs 0 < interval < timeout, got " + interval
                        + " and " + timeout);
            }
            this.heartbeatInterval = interval;
            this.heartbeatTimeout = timeout;
            return this;
        }

        /**
         * The node's I/O runs on {@code s}'s carriers: they poll its sockets themselves, so a value that arrives
         * for a fiber is decoded, and the fiber runs, on the carrier that read it, with no thread hand-off. The
         * default for a node started by a fiber is its scheduler; a node started elsewhere without this option
         * has an I/O thread of its own. Close the node before the scheduler.
         */
        public Builder scheduler(Scheduler s) {
            this.scheduler = Objects.requireNonNull(s, "a scheduler is needed");
            return this;
        }

        /** The largest frame a link accepts (a larger one closes that link); default 16 MiB. */
        public Builder maxFrameBytes(int n) {
            if (n < 1024) {
                throw new IllegalArgumentException("maxFrameBytes must be at least 1024, got " + n);
            }
            this.maxFrameBytes = n;
            return this;
        }

        /**
         * Starts the node: binds its address and is ready for links.
         *
         * @throws IllegalStateException if both {@link #codec} and {@link #allow} were given, or both
         *                               {@link #serveNames()} and {@link #nameServer}
         */
        public Node start() {
            if (codec != null && !allowed.isEmpty()) {
                throw new IllegalStateException("allow(" + Arrays.toString(allowed.toArray())
                        + ") configures the default codec, and a codec of your own was given: allow the types there");
            }
            if (serveNames && nameServer != null) {
                throw new IllegalStateException("a node that serves names uses itself: drop nameServer(" + nameServer + ")");
            }
            return new Node(this);
        }
    }
}
