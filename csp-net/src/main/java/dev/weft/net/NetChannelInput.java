package dev.weft.net;

import dev.weft.csp.AltingChannelInput;

/** A net channel end: a synchronous or buffered input read on this node, usable as a guard. */
public interface NetChannelInput<T> extends AltingChannelInput<T> {
    /** The location of the net input this end reads or writes. */
    NetChannelLocation location();
}
