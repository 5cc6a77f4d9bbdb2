package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the stream into frames and turns each into a {@link Frame}, on the event loop. Netty's length-field decoder
 * cuts (the 4-byte length prefix, and a frame longer than the link allows refused); each frame is read where it
 * lies in the bytes received, as soon as it is cut, with no slice of its own nor a second handler: per frame, one
 * {@link Frame} and its payload are all that is made. A frame without payload shares an empty one.
 * {@link FrameEncoder} writes them.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    /** Where the frame just cut lies in the bytes received, after its length prefix (set by extractFrame). */
    private int frameIndex, frameLength;

    /** Frames of at most {@code maxFrameBytes} (after their length prefix). */
    FrameDecoder(int maxFrameBytes) {
        super(Pipeline.LENGTH_BYTES + maxFrameBytes, 0, Pipeline.LENGTH_BYTES, 0, Pipeline.LENGTH_BYTES);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        return super.decode(ctx, in) == null ? null : read(in, frameIndex, frameLength);
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

    /** The frame of {@code length} bytes at {@code index} of {@code in}, its length prefix left out. */
    private static Frame read(ByteBuf in, int index, int length) {
        if (length < Frame.HEADER_BYTES) {
            throw new CorruptedFrameException(length + " bytes, shorter than the " + Frame.HEADER_BYTES + "-byte header");
        }
        byte type = in.getByte(index);
        long channel = in.getLong(index + 1);
        long number = in.getLong(index + 9);
        if (length == Frame.HEADER_BYTES) {
            return new Frame(type, channel, number);
        }
        byte[] payload = new byte[length - Frame.HEADER_BYTES];
        in.getBytes(index + Frame.HEADER_BYTES, payload);
        return new Frame(type, channel, number, payload);
    }
}
