package dev.weft.bench.net;

import dev.weft.net.codec.KryoCodec;

/** What the Weft side of the net benchmarks shares with the raw Netty side: the size of a value on the wire. */
public final class WeftNet {
    private WeftNet() {
    }

    /**
     * The payload bytes of {@code value} in a Weft frame: what a node's default codec makes of it. The raw
     * Netty benchmarks send payloads of this size, so both put the same bytes on the wire per value.
     */
    public static int encodedBytes(Object value) {
        return new KryoCodec().encode(value).length;
    }
}
