package dev.weft.csp.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test whose body runs as the main process of a {@code Weft.run} on a simulated scheduler: one
 * carrier, a virtual clock that jumps to the next timer as soon as every fiber waits, and every scheduling
 * choice drawn from a seed. The method must be {@code @Pausable} (and its class woven by csp-maven-plugin);
 * it takes no parameter or a {@link WeftTestContext} (besides any JUnit resolves).
 *
 * <p>The body runs {@link #runs()} times, under seeds 0, 1, 2...: each seed is a different interleaving,
 * and the same seed the same one on any machine. The first failing run fails the test with its seed; a
 * deadlock and a run that exceeds {@link #stepBudget()} scheduling steps count as failures. To replay one
 * interleaving, set {@link #seed()} or run with {@code -Dweft.test.seed=N}.
 *
 * <pre>{@code
 * @WeftTest(runs = 500, preemption = 0.2)
 * @Pausable
 * void counterKeepsEveryIncrement(WeftTestContext ctx) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Test
@ExtendWith(WeftTestExtension.class)
public @interface WeftTest {
    /** The value of {@link #seed()} that means "explore": no seed is replayed. */
    long EXPLORE = Long.MIN_VALUE;

    /** How many interleavings to try (seeds 0 to runs - 1); 1 runs the test once, under seed 0. */
    int runs() default 1;

    /** Replays this one seed (the one a failure printed) instead of exploring. */
    long seed() default EXPLORE;

    /**
     * The probability that a fiber yields at each channel operation and selection, besides the random pick of
     * the next fiber whenever one pauses: above 0 it also interleaves fibers that never wait for each other.
     */
    double preemption() default 0;

    /** The scheduling steps (fiber dispatches) a run may take before it fails as a livelock. */
    long stepBudget() default Explorer.DEFAULT_STEP_BUDGET;
}
