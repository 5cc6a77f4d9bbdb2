package dev.weft.csp;

/** Channel factories. A channel of capacity 0 (the default) is synchronous: a write completes with its read. */
public final class Channel {
    private Channel() {
    }

    /** A synchronous channel between one writer and one reader. */
    public static <T> One2OneChannel<T> one2one() {
        return new RendezvousChannel<>();
    }
}
