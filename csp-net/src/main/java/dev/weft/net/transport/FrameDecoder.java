package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Turns the bytes of one frame into a {@link Frame}, on the event loop. Netty's
 * {@code LengthFieldBasedFrameDecoder} before it cuts the stream into frames and strips their 4-byte length
 * prefix (and refuses one longer than the link allows), so this sees one whole frame at a time; a frame without
 * payload shares an empty one. {@link FrameEncoder} writes them.
 */
final class FrameDecoder extends MessageToMessageDecoder<ByteBuf> {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Frame.HEADER_BYTES) {
            throw new CorruptedFrameException(in.readableBytes() + " bytes, shorter than the " + Frame.HEADER_BYTES + "-byte header");
        }
        byte type = in.readByte();
        long channel = in.readLong();
        long number = in.readLong();
        if (!in.isReadable()) {
            out.add(new Frame(type, channel, number));
        } else {
            byte[] payload = new byte[in.readableBytes()];
            in.readBytes(payload);
            out.add(new Frame(type, channel, number, payload));
        }
    }
}
