package dev.weft.csp;

/** A channel output usable as a guard of an alternative: ready when a reader waits or the buffer has room. */
public interface AltingChannelOutput<T> extends ChannelOutput<T>, Guard {
}
