package dev.weft.net.internal.sockets;

/** Throws a checked exception where the API does not declare it (as the one its contract names). */
public final class Sneaky {
    private Sneaky() {
    }

    /** Throws {@code t} unchanged; declared to return so that a caller can write {@code throw Sneaky.rethrow(t)}. */
    @SuppressWarnings("unchecked")
    public static <T extends Throwable> RuntimeException rethrow(Throwable t) throws T {
        throw (T) t;
    }
}
