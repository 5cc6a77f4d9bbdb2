package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the stream into frames, on the event loop. Netty's length-field decoder cuts (the 4-byte length prefix, and
 * a frame longer than the link allows refused); each frame is read where it lies in the bytes received, as soon as
 * it is cut, with no slice of its own nor a second handler. Once its connection's link is up, a channel-layer
 * frame goes from here to the link, by its parts: per frame, its payload is all that is made (none for a frame
 * without one). Any other frame (the handshake's, a ping, a goodbye, and whatever comes while the connection is
 * not up) goes up the pipeline as a {@link Frame}; a frame without payload shares an empty one. Either way the
 * frames keep their order: Netty's decoder passes on what one call decoded before it decodes the next.
 * {@link FrameEncoder} writes them.
 *
 * <p>While {@link Backpressure} holds reading off, channel-layer frames go up as {@link Frame}s too: Netty's
 * decoder asks the socket for another read after a read that passed nothing up the pipeline (it takes it for a
 * frame still incomplete), which would undo the hold, read after read.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    /** The connection whose link takes the channel layer's frames once up (null: every frame goes up as a Frame). */
    private final Connection connection;
    /** Where the frame just cut lies in the bytes received, after its length prefix (set by extractFrame). */
    private int frameIndex, frameLength;

    /** Frames of at most {@code maxFrameBytes} (after their length prefix), every one up the pipeline. */
    FrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, null);
    }

    /** Frames of at most {@code maxFrameBytes}; {@code connection}'s link takes the channel layer's once up. */
    FrameDecoder(int maxFrameBytes, Connection connection) {
        super(Pipeline.LENGTH_BYTES + maxFrameBytes, 0, Pipeline.LENGTH_BYTES, 0, Pipeline.LENGTH_BYTES);
        this.connection = connection;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (super.decode(ctx, in) == null) {
            return null;
        }
        int index = frameIndex, length = frameLength;
        checkHeader(length);
        byte type = in.getByte(index);
        Connection c = connection;
        if (c == null || type < Frame.FIRST_CHANNEL_TYPE || !c.isUp() || !ctx.channel().config().isAutoRead()) {
            return read(in, index, length);
        }
        // Every part is read before the link hears of it: what it does next (a refusal closing the connection,
        // say) cannot touch bytes still to be read.
        c.deliver(type, in.getLong(index + 1), in.getLong(index + 9), payload(in, index, length));
        return null;
    }

    /**
     * Notes where the frame lies instead of slicing it: {@link #decode} reads it from {@code buffer} at once,
     * while the decoder still holds those bytes. Returns {@code buffer}, which says only that a frame was cut.
     */
    @Override
    protected ByteBuf extractFrame(ChannelHandlerContext ctx, ByteBuf buffer, int index, int length) {
        frameIndex = index;
        frameLength = length;
        return buffer;
    }

    /** Refuses a frame too short for its header. */
    private static void checkHeader(int length) {
        if (length < Frame.HEADER_BYTES) {
            throw new CorruptedFrameException(length + " bytes, shorter than the " + Frame.HEADER_BYTES + "-byte header");
        }
    }

    /** The frame of {@code length} bytes at {@code index} of {@code in}, its length prefix left out. */
    private static Frame read(ByteBuf in, int index, int length) {
        return new Frame(in.getByte(index), in.getLong(index + 1), in.getLong(index + 9), payload(in, index, length));
    }

    /** The payload of the frame of {@code length} bytes at {@code index} of {@code in}: a copy, or the empty one. */
    private static byte[] payload(ByteBuf in, int index, int length) {
        if (length == Frame.HEADER_BYTES) {
            return Frame.NONE;
        }
        byte[] payload = new byte[length - Frame.HEADER_BYTES];
        in.getBytes(index + Frame.HEADER_BYTES, payload);
        return payload;
    }
}
