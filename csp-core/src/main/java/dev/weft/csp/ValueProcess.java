package dev.weft.csp;

/**
 * A process given one value: the body of {@link ChannelInput#forEach} and the handler of a read case of
 * {@link Select}.
 *
 * @param <T> the value's type
 */
@FunctionalInterface
public interface ValueProcess<T> {
    /** The body for {@code value}; it may pause. */
    @Pausable
    void run(T value);
}
