package dev.weft.net.netns;

/**
 * How long a lab program runs, and how node 0 tells the harness it is under way (so that a partition falls in
 * the middle of a run): it prints {@code running} after {@link #AFTER} values, and ends once it has had at least
 * that many, its minimum time has passed and node 1's bulk value, if any, has come.
 */
final class Running {
    /** Values (CommsTime) or jobs (farm) before node 0 says it is running. */
    static final int AFTER = 20;

    private Running() {
    }

    /** Called with each value's count: says {@code running} at {@link #AFTER}. */
    static void counted(long count) {
        if (count == AFTER) {
            System.out.println("running");
            System.out.flush();
        }
    }

    /** Whether node 0 may end the run, {@code count} values in, started at {@code startNanos}. */
    static boolean mayEnd(long count, boolean bulkDone, long startNanos, int minMillis) {
        return count >= AFTER && bulkDone && System.nanoTime() - startNanos >= minMillis * 1_000_000L;
    }
}
