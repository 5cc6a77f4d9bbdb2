package dev.weft.net;

import dev.weft.csp.ChannelOutput;

/** A net channel end: an output to a net channel input on any node, for one writing process at a time. */
public interface NetChannelOutput<T> extends ChannelOutput<T> {
    /** The location of the net input this end reads or writes. */
    NetChannelLocation location();
}
