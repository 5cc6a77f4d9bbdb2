package dev.weft.net.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Turns a {@link Frame} written to the pipeline (the handshake's, a ping, a goodbye) into its bytes, on the event
 * loop: the 4-byte length, then the frame, in one buffer (Netty's {@code LengthFieldPrepender} writes the length
 * as a second buffer, and the promises that two buffers per frame cost were the largest item of a busy link's
 * profile). A live link's own frames skip this encoder: {@link PeerLink} appends all frames of one drain to one
 * buffer with {@link #encode(Frame, ByteBuf)} and writes it from this handler's place in the pipeline (no trip
 * through the handlers above, which are inbound only). {@link FrameDecoder} reads them back.
 */
final class FrameEncoder extends MessageToMessageEncoder<Frame> {
    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
        out.add(encode(frame, ctx.alloc().ioBuffer(Pipeline.LENGTH_BYTES + Frame.HEADER_BYTES + frame.payload().length)));
    }

    /** Appends {@code frame} with its length prefix to {@code buf} (which grows if need be); returns {@code buf}. */
    static ByteBuf encode(Frame frame, ByteBuf buf) {
        return buf.writeInt(Frame.HEADER_BYTES + frame.payload().length).writeByte(frame.type()).writeLong(frame.channel())
                .writeLong(frame.number()).writeBytes(frame.payload());
    }
}
