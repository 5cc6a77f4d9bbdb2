package dev.weft.csp.runtime;

import java.util.Arrays;

/**
 * What an idle worker last saw of each other worker's slice, to tell one that lasts: a worker publishes the
 * count of slices it has dispatched ({@link Worker#slices()}); a count seen unchanged since a given time means
 * one slice has run since then. The idle worker alone reads and writes it (the carrier watchdog, which looks
 * for slices that block a carrier, keeps its own in {@link CarrierWatchdog}).
 */
final class SliceWatch {
    /** Per worker (by index): the slice count last seen, -1 before the first look, and since when it was seen. */
    private final int[] seenSlices;
    private final long[] seenSince;

    SliceWatch(int workers) {
        seenSlices = new int[workers];
        seenSince = new long[workers];
        Arrays.fill(seenSlices, -1);
    }

    /**
     * How long, at {@code now}, {@code worker} has been seen in the slice it runs: -1 if this look found a new
     * slice (or the first look), which is then timed from {@code now}.
     */
    long lasted(Worker worker, long now) {
        int i = worker.index;
        int s = worker.slices();
        if (s != seenSlices[i]) {
            seenSlices[i] = s;
            seenSince[i] = now;
            return -1;
        }
        return now - seenSince[i];
    }
}
