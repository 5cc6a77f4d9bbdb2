package dev.weft.net;

import dev.weft.csp.SharedChannelOutput;

/** A net channel end: an output to a net channel input that any number of local processes may write to. */
public interface NetSharedChannelOutput<T> extends SharedChannelOutput<T> {
    /** The location of the net input this end reads or writes. */
    NetChannelLocation location();
}
