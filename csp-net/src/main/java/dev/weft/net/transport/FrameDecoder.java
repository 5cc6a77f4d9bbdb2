package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Cuts the bytes from the peer into {@link Frame}s: a 4-byte length, then the frame. Each frame is read straight
 * from the bytes received, with no buffer or copy of its own but its payload (a frame without payload shares an
 * empty one). Once the peer sent a corrupt or too long frame, the rest of what it sends is dropped unread: the
 * {@link Connection} closes it. On the event loop.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private final int maxFrameBytes;
    private boolean broken;

    FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < Pipeline.LENGTH_BYTES) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < Frame.HEADER_BYTES || length > maxFrameBytes) {
            broken = true;
            in.skipBytes(in.readableBytes());
            throw length < Frame.HEADER_BYTES
                    ? new CorruptedFrameException(length + " bytes, shorter than the " + Frame.HEADER_BYTES + "-byte header")
                    : new TooLongFrameException("a frame of " + length + " bytes, longer than " + maxFrameBytes);
        }
        if (in.readableBytes() < Pipeline.LENGTH_BYTES + length) {
            return; // the rest of the frame is still on its way
        }
        in.skipBytes(Pipeline.LENGTH_BYTES);
        byte type = in.readByte();
        long channel = in.readLong();
        long number = in.readLong();
        int payloadBytes = length - Frame.HEADER_BYTES;
        if (payloadBytes == 0) {
            out.add(new Frame(type, channel, number));
        } else {
            byte[] payload = new byte[payloadBytes];
            in.readBytes(payload);
            out.add(new Frame(type, channel, number, payload));
        }
    }
}
