package dev.weft.csp;

/** A channel with one reader and one writer; both ends can be guards. */
public interface One2OneChannel<T> {
    /** The reading end. */
    AltingChannelInput<T> in();

    /** The writing end. */
    AltingChannelOutput<T> out();
}
