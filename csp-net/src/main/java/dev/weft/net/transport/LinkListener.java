package dev.weft.net.transport;

/**
 * What the channel layer of a node hears from its transport. Both methods run on a network event loop:
 * they must never block or run a fiber, only hand values over and wake parties.
 */
public interface LinkListener {
    /**
     * A channel-layer frame came in on {@code link}, given by its parts (see {@link Frame}): the transport reads
     * them where they lie in the bytes received, with no frame object.
     */
    void received(Link link, byte type, long channel, long number, byte[] payload);

    /**
     * {@code link} is gone for good (or could not be made): called once per link, after which it
     * delivers nothing and sends nothing. {@code why} says what happened, for {@code LinkLostException}.
     */
    void lost(Link link, String why);
}
