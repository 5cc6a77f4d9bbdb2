package dev.weft.csp;

/** A channel output that any number of processes may write to at once; writers are served in FIFO order. */
public interface SharedChannelOutput<T> extends ChannelOutput<T> {
}
