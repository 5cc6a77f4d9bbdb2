package dev.weft.csp;

/** A channel input usable as a guard of an alternative: ready when a value waits (or the channel has ended). */
public interface AltingChannelInput<T> extends ChannelInput<T>, Guard {
    /** Whether a value (or a committed writer) is waiting, so that a read would not pause. */
    boolean pending();
}
