package dev.weft.csp.runtime;

import java.util.SplittableRandom;

/**
 * What makes a one-worker scheduler a deterministic test bench (see {@code dev.weft.csp.spi.Extensions.simulated}): a virtual
 * clock, which stands still while fibers run and jumps to the next timer once every fiber waits, and a
 * seeded generator that makes every scheduling choice (which runnable fiber goes next, where an
 * alternative starts looking, whether a fiber yields at a channel operation). The same seed gives the same
 * run on any machine, since nothing else the run sees depends on real time or on another thread.
 *
 * <p>A run is bounded by a budget of scheduling steps (fiber dispatches): a livelock exhausts it, and the
 * scheduler then fails its runs with a fiber dump. The clock and the generator belong to the scheduler's
 * one carrier; the test reads and advances the clock from its fibers.
 */
public final class Simulation {
    /** The virtual clock starts here, far from 0 and from overflow, as {@link System#nanoTime()} values may. */
    private static final long EPOCH = 1L << 40;
    private static final long NO_LIMIT = Long.MAX_VALUE;

    private static volatile boolean anyCreated;

    private final long seed;
    private final SplittableRandom random;
    private final double preemption;
    private final long stepBudget;
    private volatile long now = EPOCH;
    private long steps;
    private volatile boolean exhausted;

    /**
     * A simulation drawing its choices from {@code seed}; at each channel operation and selection a fiber
     * yields with probability {@code preemption} (0 for never); a run may dispatch fibers {@code stepBudget}
     * times (0 for no limit).
     */
    public Simulation(long seed, double preemption, long stepBudget) {
        if (!(preemption >= 0 && preemption <= 1)) {
            throw new IllegalArgumentException("preemption is a probability, got " + preemption);
        }
        if (stepBudget < 0) {
            throw new IllegalArgumentException("the step budget cannot be negative, got " + stepBudget);
        }
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.preemption = preemption;
        this.stepBudget = stepBudget == 0 ? NO_LIMIT : stepBudget;
        anyCreated = true;
    }

    /**
     * Whether a simulation was ever made in this JVM: the one static read that a channel operation pays
     * before it looks for a preemption point (false in production, so it costs no more).
     */
    public static boolean anyCreated() {
        return anyCreated;
    }

    /** The seed the choices come from. */
    public long seed() {
        return seed;
    }

    /** The virtual time, on the scale of {@link System#nanoTime()}: deadlines of this scheduler's fibers use it. */
    public long nanoTime() {
        return now;
    }

    /** Moves the clock forward by {@code nanos}; due timers fire at the next scheduling point. */
    public void advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("the clock cannot go back, got " + nanos + " ns");
        }
        now += nanos;
    }

    /** Moves the clock to {@code deadline} if it lies ahead (the carrier does, as every fiber waits). */
    void advanceTo(long deadline) {
        if (deadline - now > 0) {
            now = deadline;
        }
    }

    /** The scheduling steps taken so far. */
    public long steps() {
        return steps;
    }

    /** Whether the step budget ran out: the scheduler failed its runs then. */
    public boolean exhausted() {
        return exhausted;
    }

    /** Counts a dispatch: true for the one that overruns the budget (the run is failed then, once). */
    boolean stepOverruns() {
        if (steps++ == stepBudget) {
            exhausted = true;
            return true;
        }
        return false;
    }

    /** A choice among {@code n} (0 to n - 1). */
    public int choose(int n) {
        return n == 1 ? 0 : random.nextInt(n);
    }

    /** Whether the running fiber should yield at this operation. */
    public boolean preempt() {
        return preemption > 0 && random.nextDouble() < preemption;
    }
}
