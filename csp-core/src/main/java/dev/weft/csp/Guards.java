package dev.weft.csp;

import dev.weft.csp.internal.Deadlines;
import dev.weft.csp.internal.SkipGuard;
import dev.weft.csp.internal.TimeGuard;
import java.time.Duration;
import java.util.Objects;

/** Guards that are not channel ends: always ready, or ready after a time. */
public final class Guards {
    private static final Guard SKIP = new SkipGuard();

    private Guards() {
    }

    /** A guard that is always ready. */
    public static Guard skip() {
        return SKIP;
    }

    /**
     * A guard that becomes ready {@code d} after the select that waits on it began: at once for a zero or
     * negative duration, never for a huge one ({@code Duration.ofSeconds(Long.MAX_VALUE)}).
     */
    public static Guard timeout(Duration d) {
        Objects.requireNonNull(d, "duration is null");
        return new TimeGuard(false, Deadlines.nanos(d));
    }

    /**
     * A guard that becomes ready when {@link System#nanoTime()} reaches {@code nanoTime} (compared as a
     * difference, as nanoTime values must be); {@code Long.MIN_VALUE} means now, {@code Long.MAX_VALUE} never.
     */
    public static Guard deadline(long nanoTime) {
        return new TimeGuard(true, nanoTime);
    }
}
