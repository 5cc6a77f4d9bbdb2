package dev.weft.csp.test;

import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.spi.Extensions;

/**
 * Runs a {@link TestProcess} on simulated schedulers ({@link Extensions#simulated}), one seed a run: what
 * {@link WeftTest} does, for tests and tools that drive it themselves. A run fails if the process throws,
 * deadlocks, or takes more than the step budget.
 */
public final class Explorer {
    /** Scheduling steps a run may take by default: far more than a unit test needs, little CPU time. */
    public static final long DEFAULT_STEP_BUDGET = 1_000_000;

    private final double preemption;
    private final long stepBudget;

    /**
     * An explorer whose runs yield with probability {@code preemption} at each channel operation and
     * selection, and may take {@code stepBudget} scheduling steps (0 for no limit); the first run checks both.
     */
    public Explorer(double preemption, long stepBudget) {
        this.preemption = preemption;
        this.stepBudget = stepBudget;
    }

    /** An explorer with no preemption and the default step budget. */
    public Explorer() {
        this(0, DEFAULT_STEP_BUDGET);
    }

    /** Runs {@code body} once under {@code seed}: null if it passed, else its failure (with the seed). */
    public ScheduleFailure run(long seed, TestProcess body) {
        Simulation simulation = new Simulation(seed, preemption, stepBudget);
        Scheduler scheduler = Extensions.simulated(simulation);
        WeftTestContext ctx = new WeftTestContext(simulation, scheduler);
        try {
            Weft.run(scheduler, () -> runUnchecked(body, ctx));
            return null;
        } catch (Throwable t) {
            return new ScheduleFailure(seed, simulation.exhausted(), t);
        } finally {
            scheduler.close();
        }
    }

    /** Runs {@code body}, throwing what it throws as it is, checked or not, for the run to report. */
    @Pausable
    private static void runUnchecked(TestProcess body, WeftTestContext ctx) {
        try {
            body.run(ctx);
        } catch (Exception e) {
            throw Explorer.<RuntimeException>sneaky(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /**
     * Runs {@code body} under seeds {@code firstSeed}, {@code firstSeed + 1}... at most {@code runs} times,
     * and returns the first failure, or null if every run passed.
     */
    public ScheduleFailure explore(long firstSeed, int runs, TestProcess body) {
        for (int i = 0; i < runs; i++) {
            ScheduleFailure f = run(firstSeed + i, body);
            if (f != null) {
                return f.afterRuns(i + 1);
            }
        }
        return null;
    }
}
