package dev.weft.net;

import dev.weft.csp.SharedChannelInput;

/** A net channel end: an input that any number of local processes may read. */
public interface NetSharedChannelInput<T> extends SharedChannelInput<T> {
    /** The location of the net input this end reads or writes. */
    NetChannelLocation location();
}
