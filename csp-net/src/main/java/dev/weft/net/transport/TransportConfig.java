package dev.weft.net.transport;

import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * How a node's {@link Transport} listens, authenticates its peers and watches its links.
 *
 * @param host              the host the node listens on and is known by (its identity, with the port)
 * @param port              the port to listen on, 0 for a free one
 * @param secret            a secret every node of the network shares, proved (never sent) in each handshake;
 *                          null for an open network
 * @param tls               the TLS context (key and trust material) for every connection, null for plain TCP;
 *                          the peer's certificate chain is checked against its trust material, its host name is not
 * @param heartbeatInterval how long a link may send nothing before a heartbeat goes out
 * @param heartbeatTimeout  how long a link may receive nothing before it is lost; also the time allowed to
 *                          establish a link; longer than {@code heartbeatInterval}
 * @param maxFrameBytes     the largest frame (header and payload, without the length prefix) sent or accepted;
 *                          a peer that announces a larger one loses its link; at least 512
 */
public record TransportConfig(String host, int port, String secret, SSLContext tls,
                              Duration heartbeatInterval, Duration heartbeatTimeout, int maxFrameBytes) {
    /** The smallest {@code maxFrameBytes}: a handshake with a long host name must fit. */
    static final int MIN_FRAME_BYTES = 512;

    /** Checks the parts. */
    public TransportConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("a transport needs a host to listen on, got "
                    + (host == null ? "null" : "'" + host + "'"));
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 0..65535 (0: a free port)");
        }
        if (secret != null && secret.isEmpty()) {
            throw new IllegalArgumentException("the secret is empty: give a real one, or null for an open network");
        }
        requirePositive("heartbeatInterval", heartbeatInterval);
        requirePositive("heartbeatTimeout", heartbeatTimeout);
        if (heartbeatTimeout.compareTo(heartbeatInterval) <= 0) {
            throw new IllegalArgumentException("heartbeatTimeout " + heartbeatTimeout + " must be longer than heartbeatInterval "
                    + heartbeatInterval + ", or a quiet link is lost between two heartbeats");
        }
        if (maxFrameBytes < MIN_FRAME_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " is below " + MIN_FRAME_BYTES
                    + ", too small for a handshake");
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
        }
    }

    /** Hides the secret: a config may end up in a log. */
    @Override
    public String toString() {
        return "TransportConfig[host=" + host + ", port=" + port + ", secret=" + (secret == null ? "none" : "set")
                + ", tls=" + (tls == null ? "off" : "on") + ", heartbeatInterval=" + heartbeatInterval
                + ", heartbeatTimeout=" + heartbeatTimeout + ", maxFrameBytes=" + maxFrameBytes + "]";
    }
}
