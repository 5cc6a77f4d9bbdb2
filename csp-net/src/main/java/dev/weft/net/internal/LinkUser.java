package dev.weft.net.internal;

import dev.weft.net.LinkLostException;
import dev.weft.net.transport.Link;

/** A net end that has used a link, so that it fails when the link is lost. */
interface LinkUser {
    /**
     * {@code link} is gone: fail with {@code e}; {@code peerClosed} if it ended in order, because the peer's node
     * closed (called on an event loop; must not block).
     */
    void linkLost(Link link, LinkLostException e, boolean peerClosed);
}
