package dev.weft.csp.test;

import dev.weft.csp.DeadlockException;

/**
 * A simulated run that failed, with the seed that replays it: the cause is what the run threw (an
 * assertion, the {@link DeadlockException} of a deadlock, or the fiber dump of a run that spent its step
 * budget).
 */
public final class ScheduleFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final long seed;
    private final boolean budgetSpent;
    private final int runs;

    ScheduleFailure(long seed, boolean budgetSpent, Throwable cause) {
        this(seed, budgetSpent, 1, cause);
    }

    private ScheduleFailure(long seed, boolean budgetSpent, int runs, Throwable cause) {
        super(describe(seed, budgetSpent, runs, cause), cause);
        this.seed = seed;
        this.budgetSpent = budgetSpent;
        this.runs = runs;
    }

    /** The same failure, found at the {@code runs}-th run of an exploration. */
    ScheduleFailure afterRuns(int runs) {
        return new ScheduleFailure(seed, budgetSpent, runs, getCause());
    }

    private static String describe(long seed, boolean budgetSpent, int runs, Throwable cause) {
        String what = budgetSpent ? "spent its step budget (a livelock?)"
                : cause instanceof DeadlockException ? "deadlocked" : "failed";
        return "the run under seed " + seed + " " + what + (runs > 1 ? " (run " + runs + " of the exploration)" : "")
                + "; replay it with @WeftTest(seed = " + seed + ") or -Dweft.test.seed=" + seed + ": " + cause;
    }

    /** The seed that replays this run. */
    public long seed() {
        return seed;
    }

    /** How many runs the exploration took to find it (1 for a single run). */
    public int runs() {
        return runs;
    }

    /** Whether the run failed by spending its step budget, rather than by throwing or deadlocking. */
    public boolean budgetSpent() {
        return budgetSpent;
    }

    /** Whether the run ended in a deadlock (every fiber blocked, no timer pending). */
    public boolean deadlocked() {
        return !budgetSpent && getCause() instanceof DeadlockException;
    }
}
