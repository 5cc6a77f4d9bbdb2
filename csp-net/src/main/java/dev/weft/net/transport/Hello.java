package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The handshake each side sends first on a connection. Payload layout: the magic {@code WEFT} (4 bytes), the
 * protocol version (2), flags (1; bit 0: the sender requires a secret), the sender's incarnation (8), the
 * dialler's link id (8; 0 from the acceptor), a random nonce (16), the sender's listening port (2) and host
 * (UTF-8, the rest).
 *
 * @param secret      whether the sender requires a secret
 * @param incarnation the sender's random id for this run of its node: a restarted node is a new peer
 * @param link        the dialler's id for the link it dials (0 from the acceptor), to tell a duplicate
 *                    connection for a live link from a new link
 * @param address     the address the sender listens on: its identity
 * @param payload     the payload as sent, which the secret's proofs cover whole
 */
record Hello(boolean secret, long incarnation, long link, NodeAddress address, byte[] payload) {
    /** The protocol version this transport speaks. */
    static final short VERSION = 1;
    private static final byte[] MAGIC = {'W', 'E', 'F', 'T'};
    private static final int NONCE_BYTES = 16;
    private static final int FIXED_BYTES = MAGIC.length + 2 + 1 + 8 + 8 + NONCE_BYTES + 2;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A hello with a fresh nonce. */
    static Hello of(NodeAddress address, long incarnation, long link, boolean secret) {
        byte[] host = address.host().getBytes(StandardCharsets.UTF_8);
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        ByteBuffer b = ByteBuffer.allocate(FIXED_BYTES + host.length)
                .put(MAGIC).putShort(VERSION).put((byte) (secret ? 1 : 0))
                .putLong(incarnation).putLong(link).put(nonce)
                .putShort((short) address.port()).put(host);
        return new Hello(secret, incarnation, link, address, b.array());
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
        int version = b.remaining() < 2 ? -1 : Short.toUnsignedInt(b.getShort());
        if (version != VERSION) {
            throw new ProtocolException("speaks protocol version " + version + ", this node speaks " + VERSION);
        }
        if (b.remaining() < FIXED_BYTES - MAGIC.length - 2) {
            throw new ProtocolException("sent a truncated handshake (" + frame.payload().length + " bytes)");
        }
        boolean secret = (b.get() & 1) != 0;
        long incarnation = b.getLong();
        long link = b.getLong();
        b.position(b.position() + NONCE_BYTES);
        int port = Short.toUnsignedInt(b.getShort());
        String host;
        try {
            host = StandardCharsets.UTF_8.newDecoder().decode(b).toString();
        } catch (CharacterCodingException e) {
            throw new ProtocolException("sent a host name that is not UTF-8");
        }
        if (host.isBlank() || port == 0) {
            throw new ProtocolException("named no listening address in its handshake ('" + host + "', port " + port + ")");
        }
        return new Hello(secret, incarnation, link, new NodeAddress(host, port), frame.payload());
    }

    /** This hello as the first frame of a connection. */
    Frame frame() {
        return new Frame(Control.HELLO, 0, 0, payload);
    }
}
