package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import java.net.ProtocolException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The handshake each side sends first on a connection, before either knows the other's protocol version. Its
 * layout, the same in every version since 2: the magic {@code WEFT} (4 bytes), the newest protocol version the
 * sender speaks (2), the oldest (2), flags (1; bit 0: the sender requires a secret), the sender's incarnation
 * (8), the dialler's link id (8; 0 from the acceptor), a random nonce (16), the sender's listening port (2), its
 * host's length (2) and host (UTF-8); then the fields later versions add, each version appending its own, so that
 * a node reads a newer node's hello by its own layout and skips the rest. Version 3 adds the sender's
 * {@code maxFrameBytes} (4).
 *
 * <p>Version 1 (the format before versions were negotiated) had no oldest version and no host length; only its
 * magic and version are read, to name it when it is refused.
 *
 * @param version       the version the two nodes speak: the older of their newest, which both speak
 * @param secret        whether the sender requires a secret
 * @param incarnation   the sender's random id for this run of its node: a restarted node is a new peer
 * @param link          the dialler's id for the link it dials (0 from the acceptor), to tell a duplicate
 *                      connection for a live link from a new link
 * @param address       the address the sender listens on: its identity
 * @param maxFrameBytes the longest frame the sender accepts, or 0 if the version spoken does not say (before 3)
 * @param payload       the payload as sent, which the secret's proofs cover whole
 */
record Hello(int version, boolean secret, long incarnation, long link, NodeAddress address, int maxFrameBytes,
             byte[] payload) {
    /** The newest protocol version this transport speaks. */
    static final int VERSION = 3;
    /**
     * The oldest version it speaks: each version speaks the one before too, so a cluster upgrades one node at a
     * time, old and new nodes linking meanwhile.
     */
    static final int OLDEST = VERSION - 1;
    /** The version that added maxFrameBytes to the hello. */
    static final int FRAME_LIMIT_VERSION = 3;
    private static final byte[] MAGIC = {'W', 'E', 'F', 'T'};
    private static final int NONCE_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** This node's hello, with a fresh nonce. */
    static Hello of(NodeAddress address, long incarnation, long link, boolean secret, int maxFrameBytes) {
        byte[] host = address.host().getBytes(StandardCharsets.UTF_8);
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        ByteBuffer b = ByteBuffer.allocate(MAGIC.length + 2 + 2 + 1 + 8 + 8 + NONCE_BYTES + 2 + 2 + host.length + 4)
                .put(MAGIC).putShort((short) VERSION).putShort((short) OLDEST).put((byte) (secret ? 1 : 0))
                .putLong(incarnation).putLong(link).put(nonce)
                .putShort((short) address.port()).putShort((short) host.length).put(host)
                .putInt(maxFrameBytes);
        return new Hello(VERSION, secret, incarnation, link, address, maxFrameBytes, b.array());
    }

    /** Reads the hello in {@code frame}, or says what the peer did wrong (to follow its name). */
    static Hello read(Frame frame) throws ProtocolException {
        if (frame.type() != Control.HELLO) {
            throw new ProtocolException("sent " + Control.name(frame.type()) + " instead of a handshake");
        }
        ByteBuffer b = ByteBuffer.wrap(frame.payload());
        byte[] magic = new byte[MAGIC.length];
        if (b.remaining() >= MAGIC.length) {
            b.get(magic);
        }
        if (!Arrays.equals(magic, MAGIC)) {
            throw new ProtocolException("is not a Weft node: its first frame lacks the WEFT magic");
        }
        try {
            int newest = Short.toUnsignedInt(b.getShort());
            int oldest = newest < 2 ? newest : Short.toUnsignedInt(b.getShort()); // version 1 had no range
            int version = Math.min(newest, VERSION);
            if (oldest > newest || version < oldest || version < OLDEST) {
                throw new VersionMismatch("speaks protocol " + range(oldest, newest) + ", this node speaks "
                        + range(OLDEST, VERSION) + ": nodes link only when both speak one version (each version"
                        + " speaks the one before too), so upgrade a cluster one version at a time");
            }
            boolean secret = (b.get() & 1) != 0;
            long incarnation = b.getLong();
            long link = b.getLong();
            b.position(b.position() + NONCE_BYTES);
            int port = Short.toUnsignedInt(b.getShort());
            byte[] hostBytes = new byte[Short.toUnsignedInt(b.getShort())];
            b.get(hostBytes);
            String host;
            try {
                host = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(hostBytes)).toString();
            } catch (CharacterCodingException e) {
                throw new ProtocolException("sent a host name that is not UTF-8");
            }
            if (host.isBlank() || port == 0) {
                throw new ProtocolException("named no listening address in its handshake ('" + host + "', port " + port + ")");
            }
            int maxFrameBytes = version >= FRAME_LIMIT_VERSION ? b.getInt() : 0;
            if (version >= FRAME_LIMIT_VERSION && maxFrameBytes < TransportConfig.MIN_FRAME_BYTES) {
                throw new ProtocolException("accepts frames of at most " + maxFrameBytes + " bytes, below the least a"
                        + " node may (" + TransportConfig.MIN_FRAME_BYTES + ")");
            }
            // what a newer version appended stays unread: this node speaks its own version with it
            return new Hello(version, secret, incarnation, link, new NodeAddress(host, port), maxFrameBytes,
                    frame.payload());
        } catch (BufferUnderflowException e) {
            throw new ProtocolException("sent a truncated handshake (" + frame.payload().length + " bytes)");
        }
    }

    private static String range(int oldest, int newest) {
        return oldest == newest ? "version " + newest : "versions " + oldest + " to " + newest;
    }

    /** This hello as the first frame of a connection. */
    Frame frame() {
        return new Frame(Control.HELLO, 0, 0, payload);
    }

    /** A peer whose versions and this node's have none in common: it is told why before the connection closes. */
    static final class VersionMismatch extends ProtocolException {
        private static final long serialVersionUID = 1L;

        VersionMismatch(String message) {
            super(message);
        }
    }
}
