package dev.weft.csp;

/** A channel with any number of writers and one reader; either end can be a guard. */
public interface Any2OneChannel<T> {
    /** The reading end. */
    AltingChannelInput<T> in();

    /** The writing end, shared by every writer. */
    SharedAltingChannelOutput<T> out();
}
