package dev.weft.csp.test;

import dev.weft.csp.Pausable;

/** The body of a simulated test: the main process of its run, given the run's {@link WeftTestContext}. */
@FunctionalInterface
public interface TestProcess {
    /** Runs the test; it fails by throwing (an assertion, a deadlock found by Weft). */
    @Pausable
    void run(WeftTestContext ctx) throws Exception;
}
