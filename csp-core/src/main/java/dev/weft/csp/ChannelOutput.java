package dev.weft.csp;

/** The writing end of a channel. */
public interface ChannelOutput<T> {
    /**
     * Offers {@code value}; on a synchronous channel returns once a reader has taken it.
     *
     * @throws NullPointerException if {@code value} is null
     * @throws ChannelClosedException if the channel was closed
     * @throws PoisonException if the channel is poisoned
     */
    @Pausable
    void write(T value);

    /** Poisons the channel: every blocked and later read or write on either end throws {@link PoisonException}. */
    void poison();

    /**
     * Closes the channel, as Go's {@code close} and Kotlin's {@code SendChannel.close} do: later writes throw
     * {@link ChannelClosedException}; the reader still receives every value written before (buffered, or held by
     * a writer already waiting), then each read throws {@link ChannelClosedException}. On a shared output the
     * close is the channel's, for every writer: close it once the last writer is done. Closing twice, or a
     * poisoned channel, does nothing; poison after a close still discards what is left.
     */
    void close();
}
