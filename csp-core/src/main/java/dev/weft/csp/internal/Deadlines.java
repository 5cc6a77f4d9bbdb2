package dev.weft.csp.internal;

import java.time.Duration;

/**
 * Deadlines on the {@link System#nanoTime()} scale, saturating: any {@link Duration} is accepted, zero and
 * negative ones mean now, huge ones mean never, and nothing overflows. Two values are special:
 * {@link #NEVER} ({@code Long.MAX_VALUE}) and {@link #NOW} ({@code Long.MIN_VALUE}); every other deadline is
 * compared with the clock as a difference, which is exact while the two are less than 2^63 ns (292 years)
 * apart.
 */
public final class Deadlines {
    public static final long NEVER = Long.MAX_VALUE;
    static final long NOW = Long.MIN_VALUE;
    /** Waits this long or longer (146 years) are forever: the difference arithmetic stays exact below it. */
    private static final long FOREVER_NANOS = 1L << 62;

    private Deadlines() {
    }

    /** The deadline {@code d} after {@code now}: {@link #NOW} for zero or less, {@link #NEVER} for huge ones. */
    public static long after(long now, Duration d) {
        return after(now, nanos(d));
    }

    /** The deadline {@code nanos} after {@code now}, saturated as {@link #after(long, Duration)}. */
    public static long after(long now, long nanos) {
        if (nanos <= 0) {
            return NOW;
        }
        return nanos >= FOREVER_NANOS ? NEVER : now + nanos;
    }

    /** {@code d} in nanoseconds: 0 if it is zero or negative, {@code Long.MAX_VALUE} if it does not fit. */
    public static long nanos(Duration d) {
        if (d.isNegative()) {
            return 0;
        }
        return d.getSeconds() >= FOREVER_NANOS / 1_000_000_000L ? Long.MAX_VALUE : d.toNanos();
    }

    /** Whether {@code deadline} has passed at {@code now}. */
    public static boolean passed(long deadline, long now) {
        return deadline != NEVER && (deadline == NOW || deadline - now <= 0);
    }

    /** Nanoseconds from {@code now} to {@code deadline}: 0 if passed, {@code Long.MAX_VALUE} for never. */
    public static long remaining(long deadline, long now) {
        if (deadline == NEVER) {
            return Long.MAX_VALUE;
        }
        return passed(deadline, now) ? 0 : deadline - now;
    }

    /** The earlier of two deadlines. */
    public static long earlier(long a, long b) {
        if (a == NEVER || b == NOW) {
            return b;
        }
        if (b == NEVER || a == NOW) {
            return a;
        }
        return a - b <= 0 ? a : b;
    }
}
