package dev.weft.csp.runtime;

/** How the runtime's warnings say how long something has lasted. */
public final class Durations {
    private Durations() {
    }

    /** {@code nanos} in whole seconds from 10 s on, else in whole milliseconds: "12 s", "250 ms". */
    public static String roughly(long nanos) {
        return nanos >= 10_000_000_000L ? nanos / 1_000_000_000L + " s" : nanos / 1_000_000 + " ms";
    }
}
