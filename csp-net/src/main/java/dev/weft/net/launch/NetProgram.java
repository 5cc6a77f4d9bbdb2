package dev.weft.net.launch;

import dev.weft.csp.Pausable;

/**
 * A program that {@link Launcher} runs on every node of a network, the launching JVM (node 0) included: each
 * node runs {@link #run} in a fiber of its own, with its {@link Cluster} to wire itself by name. Node 0's
 * result is the program's. A worker JVM makes the program with its public no-argument constructor.
 *
 * @param <R> the program's result
 */
public interface NetProgram<R> {
    /** This node's part: node 0 returns the result; the other nodes' results are ignored. */
    @Pausable
    R run(Cluster cluster);

    /** Types beyond the default codec's that the program sends (see {@code Node.Builder.allow}). */
    default Class<?>[] allowedTypes() {
        return new Class<?>[0];
    }
}
