package dev.weft.csp;

/** A channel with any number of writers and readers; either end can be a guard. */
public interface Any2AnyChannel<T> {
    /** The reading end, shared by every reader. */
    SharedAltingChannelInput<T> in();

    /** The writing end, shared by every writer. */
    SharedAltingChannelOutput<T> out();
}
