package dev.weft.csp;

/** The reading end of a channel. */
public interface ChannelInput<T> {
    /**
     * Takes the next value, pausing until a writer offers one.
     *
     * @throws ChannelClosedException if the channel was closed and every value written before has been read
     * @throws PoisonException if the channel is poisoned
     */
    @Pausable
    T read();

    /** Poisons the channel: every blocked and later read or write on either end throws {@link PoisonException}. */
    void poison();

    /**
     * Reads every value until the channel is closed and drained, giving each to {@code body} in turn: the loop
     * Go writes as {@code for v := range ch}. Returns normally at the end of a closed channel; poison still
     * throws {@link PoisonException}.
     *
     * @throws NullPointerException if {@code body} is null
     */
    @Pausable
    default void forEach(ValueProcess<? super T> body) {
        if (body == null) {
            throw new NullPointerException("body is null");
        }
        for (;;) {
            T value;
            try {
                value = read();
            } catch (ChannelClosedException end) {
                return;
            }
            body.run(value);
        }
    }
}
