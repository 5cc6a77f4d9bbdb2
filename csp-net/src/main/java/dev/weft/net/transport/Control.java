package dev.weft.net.transport;

/**
 * The transport's own frame types (0 to 15), which never reach the channel layer. A connection opens with
 * {@link #HELLO} both ways, then {@link #PROOF} both ways when the network has a secret; the side that
 * accepted the connection then answers {@link #ACCEPT} or {@link #REDUNDANT}, and only after that do
 * channel-layer frames flow.
 */
final class Control {
    /** The handshake: magic, version, identity, incarnation, nonce (see {@link Hello}). */
    static final byte HELLO = 0;
    /** The HMAC that proves the sender knows the secret (see {@link Secret}); payload 32 bytes. */
    static final byte PROOF = 1;
    /** The acceptor takes this connection for the link; number: the acceptor's link id. */
    static final byte ACCEPT = 2;
    /** The acceptor links over another connection with the dialler (a simultaneous connect): drop this one. */
    static final byte REDUNDANT = 3;
    /** A heartbeat, sent when nothing else was. */
    static final byte PING = 4;
    /** The sender closes the link; payload: why in UTF-8, empty when its node closes. */
    static final byte GOODBYE = 5;

    private Control() {
    }

    /** A name for messages. */
    static String name(byte type) {
        return switch (type) {
            case HELLO -> "HELLO";
            case PROOF -> "PROOF";
            case ACCEPT -> "ACCEPT";
            case REDUNDANT -> "REDUNDANT";
            case PING -> "PING";
            case GOODBYE -> "GOODBYE";
            default -> type >= Frame.FIRST_CHANNEL_TYPE ? "channel frame type " + type : "unknown type " + type;
        };
    }
}
