package dev.weft.csp;

/**
 * A process that gives a value: the body of {@link Weft#async(Computation)}.
 *
 * @param <T> the value's type
 */
@FunctionalInterface
public interface Computation<T> {
    /** Computes the value; it may pause. */
    @Pausable
    T compute();
}
