package dev.weft.csp.runtime;

/**
 * How a worker counts the fibers that the running slice spawns in their run ({@link RunGroup#started}) without
 * an atomic update of the run for each: the first of a slice is counted at once; a slice that spawns more takes
 * {@value #CREDIT} counts at a time and uses them up, and gives back what is left as it ends ({@link #giveBack}).
 * The run cannot look finished meanwhile: the spawner, one of its fibers, runs. Its worker's carrier only.
 */
final class StartCredit {
    /** How many starts of one run a slice that spawns several takes at a time. */
    private static final int CREDIT = 64;

    /** The slice (its worker's count) that has counted one start already; -1: none. */
    private int countedInSlice = -1;
    /** The run whose fibers the running slice counts from its credit, and the counts left. */
    private RunGroup credited;
    private int credit;

    /** Counts a fiber of {@code run} spawned by the slice numbered {@code slice}. */
    void countStarted(RunGroup run, int slice) {
        if (credit > 0 && credited == run) {
            credit--;
        } else if (countedInSlice != slice) {
            countedInSlice = slice;
            run.started();
        } else {
            giveBack();
            run.reserve(CREDIT);
            credited = run;
            credit = CREDIT - 1;
        }
    }

    /** Gives back the counts that the slice took for fibers it did not spawn; the slice ends. */
    void giveBack() {
        RunGroup run = credited;
        if (run != null) {
            int unused = credit;
            credited = null;
            credit = 0;
            if (unused > 0) {
                run.release(unused);
            }
        }
    }
}
