package dev.weft.net.transport;

import dev.weft.net.NodeAddress;

/**
 * The one connection between this node and a peer node, over which all their channels are multiplexed.
 * Thread-safe: any fiber, thread or event loop may send.
 */
public interface Link {
    /** The address the peer node listens on (its identity). */
    NodeAddress peer();

    /**
     * Queues {@code frame} for the peer and returns at once, never blocking: frames queued together go out
     * in one flush. On a link that is being established the frame waits for the handshake; on a lost link
     * it is dropped (the listener has been or will be told).
     */
    void send(Frame frame);

    /**
     * Closes the link because the peer broke the protocol (a frame the channel layer refuses): nothing more
     * is delivered from it, and the listener hears {@code lost} with {@code why}.
     */
    void refuse(String why);

    /**
     * Whether the link ever came up (its handshake done), even if lost since: false for a link that could not
     * be made (the peer not listening yet, say).
     */
    boolean cameUp();

    /** Whether the link has been lost (or refused, or closed). */
    boolean isLost();

    /** Why the link was lost, as its listener was told (a refused handshake says what was wrong). */
    String whyLost();

    /**
     * Whether the link ended in order, because the peer's node closed and said goodbye, rather than by a
     * failure (a crash, a reset, missing heartbeats, a refused frame). Meaningful once it is lost.
     */
    boolean endedByPeerClosing();
}
