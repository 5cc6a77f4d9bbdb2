package dev.weft.bench.harness;

/**
 * Durations in nanoseconds, counted in buckets about 1.5% wide (64 sub-buckets per power of two, exact below
 * 64 ns), so that a harness records millions of them without allocating. One writer; merge, then read.
 */
public final class LatencyHistogram {
    private static final int SUB = 64;
    private final long[] counts = new long[SUB * 64];
    private long count;
    private long max;

    /** Records one duration. */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        counts[index(v)]++;
        count++;
        if (v > max) {
            max = v;
        }
    }

    /** Adds every duration of {@code other}. */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        max = Math.max(max, other.max);
    }

    public long count() {
        return count;
    }

    public long max() {
        return max;
    }

    /** The duration at quantile {@code q} (0.5: the median), as its bucket's upper bound. */
    public long quantile(double q) {
        long rank = (long) Math.ceil(q * count);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank && counts[i] > 0) {
                return Math.min(max, upperBound(i));
            }
        }
        return max;
    }

    /** p50, p99, p99.9, p99.99 and max, in microseconds. */
    public String summary() {
        return String.format("p50 %.2f us, p99 %.2f us, p99.9 %.2f us, p99.99 %.1f us, max %.1f us (%,d samples)",
                quantile(0.5) / 1e3, quantile(0.99) / 1e3, quantile(0.999) / 1e3, quantile(0.9999) / 1e3,
                max / 1e3, count);
    }

    /** The figures of {@link #summary()} in nanoseconds, space-separated, for a {@code RESULT} line. */
    public String figures() {
        return quantile(0.5) + " " + quantile(0.99) + " " + quantile(0.999) + " " + quantile(0.9999) + " " + max;
    }

    private static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exp = 63 - Long.numberOfLeadingZeros(v); // >= 6
        int sub = (int) (v >>> (exp - 6)) & (SUB - 1);
        return (exp - 5) * SUB + sub;
    }

    private static long upperBound(int i) {
        if (i < SUB) {
            return i;
        }
        int exp = i / SUB + 5;
        long sub = i % SUB;
        return ((SUB + sub + 1) << (exp - 6)) - 1;
    }
}
