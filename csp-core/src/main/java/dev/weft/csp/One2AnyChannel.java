package dev.weft.csp;

/** A channel with one writer and any number of readers; either end can be a guard. */
public interface One2AnyChannel<T> {
    /** The reading end, shared by every reader. */
    SharedAltingChannelInput<T> in();

    /** The writing end. */
    AltingChannelOutput<T> out();
}
