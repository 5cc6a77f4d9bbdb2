package dev.weft.csp;

/** The writing end of a channel. */
public interface ChannelOutput<T> {
    /**
     * Offers {@code value}; on a synchronous channel returns once a reader has taken it.
     *
     * @throws NullPointerException if {@code value} is null
     */
    @Pausable
    void write(T value);

    /** Poisons the channel: every blocked and later read or write on either end throws {@link PoisonException}. */
    void poison();
}
