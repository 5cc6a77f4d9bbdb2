package dev.weft.csp;

/** A channel input that any number of processes may read from at once; readers are served in FIFO order. */
public interface SharedChannelInput<T> extends ChannelInput<T> {
}
