package dev.weft.csp;

/** A channel output with a single writer, usable as a guard of an alternative. */
public interface AltingChannelOutput<T> extends ChannelOutput<T>, Guard {
}
