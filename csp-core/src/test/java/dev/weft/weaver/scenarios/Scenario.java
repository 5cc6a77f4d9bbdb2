package dev.weft.weaver.scenarios;

import dev.weft.csp.Pausable;

/** Pausable code under test: it takes its inputs from a {@link Source} and returns a result to compare. */
@FunctionalInterface
public interface Scenario<T> {
    /** Runs the scenario, pausing at every input it reads. */
    @Pausable
    T run(Source in);
}
