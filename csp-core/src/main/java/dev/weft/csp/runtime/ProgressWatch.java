package dev.weft.csp.runtime;

import java.util.Arrays;
import java.util.function.ToIntFunction;

/**
 * What one worker last saw of a count that every other worker advances as it makes progress (the slices it
 * has dispatched, {@link Worker#slices()}; the polls of its own sockets, {@link Worker#polls()}), to tell a
 * worker that has stood still since a given time: a count seen unchanged since then means one slice has run
 * since then, or no poll. The watching worker alone reads and writes it (the carrier watchdog, which looks for
 * slices that block a carrier, keeps its own in {@link CarrierWatchdog}).
 */
final class ProgressWatch {
    private final ToIntFunction<Worker> count;
    /** Per worker (by index): the count last seen, -1 before the first look, and since when it was seen. */
    private final int[] seen;
    private final long[] seenSince;

    ProgressWatch(int workers, ToIntFunction<Worker> count) {
        this.count = count;
        seen = new int[workers];
        seenSince = new long[workers];
        Arrays.fill(seen, -1);
    }

    /**
     * How long, at {@code now}, {@code worker}'s count has stood still: -1 if this look found it moved (or
     * the first look), and it is then timed from {@code now}.
     */
    long stillFor(Worker worker, long now) {
        int i = worker.index;
        int c = count.applyAsInt(worker);
        if (c != seen[i]) {
            seen[i] = c;
            seenSince[i] = now;
            return -1;
        }
        return now - seenSince[i];
    }
}
