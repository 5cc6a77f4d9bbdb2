package dev.weft.net.transport;

/**
 * One message on a link, as the channel layer sees it: a type, the channel it is for, a number whose meaning
 * depends on the type, and an optional payload (encoded by the node's codec). On the wire, after the
 * length prefix: type (1 byte), channel (8), number (8), payload (the rest).
 *
 * <p>Types 0 to 15 belong to the transport (handshake, heartbeat, goodbye) and never reach the channel
 * layer; 16 and up are the channel layer's, which refuses a type it does not know.
 *
 * @param type    the frame type, 16 to 127 for the channel layer
 * @param channel the channel (or request) the frame is about
 * @param number  a sequence number, a count or a second id, by type
 * @param payload the payload, empty if none (never null)
 */
public record Frame(byte type, long channel, long number, byte[] payload) {
    /** Bytes before the payload. */
    public static final int HEADER_BYTES = 17;
    /** The first type that belongs to the channel layer. */
    public static final byte FIRST_CHANNEL_TYPE = 16;
    /** The payload of every frame without one (never written to). */
    static final byte[] NONE = new byte[0];

    /** Checks the parts. */
    public Frame {
        if (payload == null) {
            throw new IllegalArgumentException("a frame's payload is never null (use an empty array)");
        }
    }

    /** A frame without payload. */
    public Frame(byte type, long channel, long number) {
        this(type, channel, number, NONE);
    }
}
