package dev.weft.csp;

/** A channel with any number of writers and readers. */
public interface Any2AnyChannel<T> {
    /** The reading end, shared by every reader. */
    SharedChannelInput<T> in();

    /** The writing end, shared by every writer. */
    SharedChannelOutput<T> out();
}
