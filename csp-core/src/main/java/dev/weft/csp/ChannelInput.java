package dev.weft.csp;

/** The reading end of a channel. */
public interface ChannelInput<T> {
    /** Takes the next value, pausing until a writer offers one. */
    @Pausable
    T read();

    /** Poisons the channel: every blocked and later read or write on either end throws {@link PoisonException}. */
    void poison();
}
