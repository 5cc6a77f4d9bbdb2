package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link FrameDecoder}: frames read where they were cut, whatever pieces the bytes came in. */
class FrameDecoderTest {
    private static final int MAX = 1024;

    @Test
    void framesAreReadWholeWhereverTheBytesAreCut() {
        byte[] big = new byte[MAX - Frame.HEADER_BYTES];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        List<Frame> sent = List.of(new Frame((byte) 16, 1, 2, new byte[] {7, 8, 9}), new Frame((byte) 17, -1, Long.MAX_VALUE),
                new Frame((byte) 18, Long.MIN_VALUE, 3, big), new Frame((byte) 19, 4, 5, new byte[] {1}));
        ByteBuf all = Unpooled.buffer();
        for (Frame f : sent) {
            FrameEncoder.encode(f, all);
        }
        byte[] bytes = new byte[all.readableBytes()];
        all.readBytes(bytes);
        for (int piece : new int[] {1, 2, 5, 21, 22, 100, bytes.length}) {
            EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX));
            for (int at = 0; at < bytes.length; at += piece) {
                ch.writeInbound(Unpooled.copiedBuffer(bytes, at, Math.min(piece, bytes.length - at)));
            }
            for (Frame expected : sent) {
                Frame got = ch.readInbound();
                assertEquals(expected.type(), got.type(), "pieces of " + piece);
                assertEquals(expected.channel(), got.channel());
                assertEquals(expected.number(), got.number());
                assertArrayEquals(expected.payload(), got.payload());
            }
            assertNull(ch.readInbound(), "pieces of " + piece);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aFrameWithoutPayloadSharesTheEmptyOne() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX));
        ch.writeInbound(FrameEncoder.encode(new Frame((byte) 16, 1, 1), Unpooled.buffer()));
        Frame got = ch.readInbound();
        assertSame(new Frame((byte) 16, 0, 0).payload(), got.payload());
        ch.finishAndReleaseAll();
    }

    @Test
    void aFrameShorterThanTheHeaderIsCorrupt() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX));
        DecoderException e = assertThrows(DecoderException.class,
                () -> ch.writeInbound(Unpooled.buffer().writeInt(Frame.HEADER_BYTES - 1).writeZero(Frame.HEADER_BYTES - 1)));
        assertInstanceOf(CorruptedFrameException.class, e.getCause() == null ? e : e.getCause());
        ch.finishAndReleaseAll();
    }

    @Test
    void aFrameLongerThanTheLimitIsRefused() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX));
        assertThrows(TooLongFrameException.class, () -> ch.writeInbound(Unpooled.buffer().writeInt(MAX + 1).writeZero(8)));
        ch.finishAndReleaseAll();
    }
}
