package dev.weft.csp.internal;

/** Rethrows the very throwable a process threw, checked or not, without wrapping it. */
public final class Rethrow {
    private Rethrow() {
    }

    /** Throws {@code t}; declared to return so that callers can write {@code throw Rethrow.unchecked(t)}. */
    @SuppressWarnings("unchecked")
    public static <T extends Throwable> RuntimeException unchecked(Throwable t) throws T {
        throw (T) t;
    }
}
