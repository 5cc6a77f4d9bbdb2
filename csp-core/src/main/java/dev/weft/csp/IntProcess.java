package dev.weft.csp;

/** A process parameterised by an index, as run by {@link Parallel#forRange(int, int, IntProcess)}. */
@FunctionalInterface
public interface IntProcess {
    /** The body of the process for index {@code i}. */
    @Pausable
    void run(int i);
}
