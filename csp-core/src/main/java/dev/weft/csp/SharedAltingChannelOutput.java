package dev.weft.csp;

/**
 * The shared output of an any2one or any2any channel, usable as a guard: any number of processes write it,
 * some in plain writes, some in alternatives. Ready when a reader waits or the buffer has room; with several
 * writers racing for that room, the write that follows a selection may have to wait for the next room.
 */
public interface SharedAltingChannelOutput<T> extends SharedChannelOutput<T>, AltingChannelOutput<T> {
}
