package dev.weft.lincheck;

/** How a channel operation ended, when it did not return a value: the results the model and the channel share. */
enum Outcome {
    /** A write went through: its value was taken, or buffered, or held by the waiting writer. */
    OK,
    /** {@link dev.weft.csp.ChannelClosedException}: a write after the close, or a read at the end. */
    CLOSED,
    /** {@link dev.weft.csp.PoisonException}. */
    POISONED,
    /**
     * Only the model answers this: a read in a state where the channel would make it wait. No run of the channel
     * returns it, so no linearization puts a read there.
     */
    WOULD_WAIT
}
