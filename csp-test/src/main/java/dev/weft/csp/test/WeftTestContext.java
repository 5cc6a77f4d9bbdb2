package dev.weft.csp.test;

import dev.weft.csp.Scheduler;
import dev.weft.csp.runtime.Simulation;
import java.time.Duration;

/**
 * What a simulated test run sees of its simulation: the seed, the scheduler, and the virtual clock, which
 * the test may read and move forward. {@code Timer.now()} reads the same clock from anywhere in the run.
 */
public final class WeftTestContext {
    private final Simulation simulation;
    private final Scheduler scheduler;
    private final long start;

    WeftTestContext(Simulation simulation, Scheduler scheduler) {
        this.simulation = simulation;
        this.scheduler = scheduler;
        this.start = simulation.nanoTime();
    }

    /** The seed of this run: {@code @WeftTest(seed = ...)} replays it. */
    public long seed() {
        return simulation.seed();
    }

    /** The simulated scheduler the run is on (to spawn on it, or dump its fibers). */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** The virtual time, on the scale of {@code Timer.sleepUntil} and {@code Guards.deadline}. */
    public long nanoTime() {
        return simulation.nanoTime();
    }

    /** The virtual time elapsed since the run began. */
    public Duration elapsed() {
        return Duration.ofNanos(simulation.nanoTime() - start);
    }

    /**
     * Moves the virtual clock forward by {@code d}; the timers it passes fire at the next scheduling point
     * (the next pause of the running fiber). Waiting moves the clock too: a sleep of any length returns at once.
     */
    public void advance(Duration d) {
        simulation.advance(d.toNanos());
    }

    /** The scheduling steps (fiber dispatches) taken so far in this run. */
    public long steps() {
        return simulation.steps();
    }
}
