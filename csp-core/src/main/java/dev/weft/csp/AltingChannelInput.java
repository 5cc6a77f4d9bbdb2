package dev.weft.csp;

/** A channel input with a single reader, usable as a guard of an alternative. */
public interface AltingChannelInput<T> extends ChannelInput<T>, Guard {
    /** Whether a value (or a committed writer) is waiting, so that a read would not pause. */
    boolean pending();
}
