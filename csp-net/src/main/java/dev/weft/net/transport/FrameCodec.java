package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageCodec;
import java.util.List;

/**
 * Turns a {@link Frame} into its bytes and back, on the event loop. Reading, Netty's
 * {@code LengthFieldBasedFrameDecoder} before it cuts the stream into frames and strips their length prefix, so
 * this codec sees one whole frame at a time. Writing, it puts the 4-byte length before the frame itself, in the
 * same buffer: Netty's {@code LengthFieldPrepender} writes it as a second buffer, and the promises that two
 * buffers per frame cost were the largest item of a busy link's profile.
 */
final class FrameCodec extends MessageToMessageCodec<ByteBuf, Frame> {
    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
        int length = Frame.HEADER_BYTES + frame.payload().length;
        ByteBuf buf = ctx.alloc().ioBuffer(Pipeline.LENGTH_BYTES + length);
        out.add(buf.writeInt(length).writeByte(frame.type()).writeLong(frame.channel()).writeLong(frame.number())
                .writeBytes(frame.payload()));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Frame.HEADER_BYTES) {
            throw new CorruptedFrameException(in.readableBytes() + " bytes, shorter than the " + Frame.HEADER_BYTES + "-byte header");
        }
        byte type = in.readByte();
        long channel = in.readLong();
        long number = in.readLong();
        byte[] payload = new byte[in.readableBytes()];
        in.readBytes(payload);
        out.add(new Frame(type, channel, number, payload));
    }
}
