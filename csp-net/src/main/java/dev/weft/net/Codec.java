package dev.weft.net;

/**
 * Turns values into bytes and back, for values that cross a link. A codec is shared by all the fibers and
 * network threads of a node, so it must be thread-safe. The default ({@link dev.weft.net.codec.KryoCodec}) builds only the
 * types it allows; a codec of your own must be as careful: {@link #decode} runs on bytes from the network.
 */
public interface Codec {
    /**
     * The bytes of {@code value}.
     *
     * @throws IllegalArgumentException if the codec may not send the value's type (the message names it)
     */
    byte[] encode(Object value);

    /**
     * The value that {@code bytes} encode. It must never build an object of a type it does not allow.
     *
     * @throws RuntimeException of any kind if the bytes are malformed or name a type that is not allowed:
     *                          the frame is refused and its link closed
     */
    Object decode(byte[] bytes);
}
