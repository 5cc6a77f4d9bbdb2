package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import java.util.List;
import java.util.Locale;

/**
 * The guard of {@link dev.weft.csp.Guards#timeout} and {@link dev.weft.csp.Guards#deadline}: ready at a deadline,
 * absolute, or relative to the start of each select.
 */
public final class TimeGuard extends SkipGuard {
    private final boolean absolute;
    private final long time;

    public TimeGuard(boolean absolute, long time) {
        this.absolute = absolute;
        this.time = time;
    }

    /** The deadline for a select that began at {@code start}. */
    public long deadline(long start) {
        return absolute ? time : Deadlines.after(start, time);
    }

    @Override
    public boolean ready(Selection.Registration me, List<Fiber> wake) {
        return false; // the alternative compares deadlines itself
    }

    /** {@code timeout 100 ms}, {@code deadline in 2.5 s}, {@code timeout never}: what a dump shows. */
    @Override
    public String toString() {
        if (!absolute) {
            return Deadlines.after(0, time) == Deadlines.NEVER ? "timeout never" : "timeout " + readable(time);
        }
        if (time == Deadlines.NEVER || time == Deadlines.NOW) {
            return time == Deadlines.NEVER ? "deadline never" : "deadline now";
        }
        long left = time - System.nanoTime();
        return left <= 0 ? "deadline passed" : "deadline in " + readable(left);
    }

    private static String readable(long nanos) {
        if (nanos < 1_000_000) {
            return nanos / 1_000 + " us";
        }
        if (nanos < 10_000_000_000L) {
            double ms = nanos / 1e6;
            return (ms == Math.rint(ms) ? String.valueOf((long) ms) : String.format(Locale.ROOT, "%.1f", ms)) + " ms";
        }
        double s = nanos / 1e9;
        if (s < 600) {
            return String.format(Locale.ROOT, "%.1f s", s);
        }
        return s < 36_000 ? String.format(Locale.ROOT, "%.1f min", s / 60) : String.format(Locale.ROOT, "%.1f h", s / 3600);
    }
}
