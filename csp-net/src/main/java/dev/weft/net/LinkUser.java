package dev.weft.net;

/** A net end that has used a link, so that it fails when the link is lost. */
interface LinkUser {
    /** The link is gone: fail with {@code e} (called on an event loop; must not block). */
    void linkLost(LinkLostException e);
}
