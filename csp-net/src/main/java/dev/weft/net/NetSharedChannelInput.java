package dev.weft.net;

import dev.weft.csp.SharedAltingChannelInput;

/**
 * A net channel end: an input that any number of local processes may read, in plain reads or as a guard of
 * their alternatives.
 */
public interface NetSharedChannelInput<T> extends SharedAltingChannelInput<T> {
    /** The location of the net input this end reads or writes. */
    NetChannelLocation location();
}
