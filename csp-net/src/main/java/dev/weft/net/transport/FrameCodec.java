package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageCodec;
import java.util.List;

/**
 * Turns a {@link Frame} into its bytes and back, on the event loop. The length prefix is the business of the
 * handlers around it: this codec sees one whole frame at a time.
 */
final class FrameCodec extends MessageToMessageCodec<ByteBuf, Frame> {
    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
        ByteBuf buf = ctx.alloc().buffer(Frame.HEADER_BYTES + frame.payload().length);
        out.add(buf.writeByte(frame.type()).writeLong(frame.channel()).writeLong(frame.number()).writeBytes(frame.payload()));
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
