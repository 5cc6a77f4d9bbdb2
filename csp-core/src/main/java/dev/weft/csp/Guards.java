package dev.weft.csp;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Guards that are not channel ends: always ready, or ready after a time. */
public final class Guards {
    private static final Guard SKIP = new Skip();

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

    /** Always ready. */
    private static class Skip implements AltGuard {
        @Override
        public ChannelImpl<?> channel() {
            return null;
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return true;
        }

        @Override
        public void register(Selection.Registration me) {
        }

        @Override
        public void unregister(Selection.Registration me) {
        }

        @Override
        public String toString() {
            return "skip";
        }
    }

    /** Ready at a deadline: absolute, or relative to the start of each select. */
    static final class TimeGuard extends Skip {
        private final boolean absolute;
        private final long time;

        TimeGuard(boolean absolute, long time) {
            this.absolute = absolute;
            this.time = time;
        }

        /** The deadline for a select that began at {@code start}. */
        long deadline(long start) {
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
}
