package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nodes told each other their maxFrameBytes in the handshake (protocol version 3): a value too long for the reading
 * node fails at its writer, and the link, the channel and the writer's lane go on.
 */
@Timeout(30)
class FrameLimitTest {
    @Test
    void aValueTooLongForTheReaderFailsAtTheWriterAndTheChannelGoesOn() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node reader = nodes.start(TestCarriers.builder().maxFrameBytes(64 * 1024));
            Node writer = nodes.start(); // 16 MiB
            NetChannelInput<byte[]> in = reader.net2one();
            NetChannelOutput<byte[]> out = writer.one2net(in.location());
            Nodes.Party<Void> small = nodes.thread("first", () -> {
                out.write(new byte[] {1});
                return null;
            });
            assertArrayEquals(new byte[] {1}, in.read()); // the link is up: the reader's limit is known
            small.join();
            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                    () -> out.write(new byte[100 * 1024]));
            assertTrue(tooLong.getMessage().contains("peer " + reader.address() + "'s maxFrameBytes 65536"),
                    tooLong.getMessage());
            Nodes.Party<Void> after = nodes.thread("after", () -> {
                out.write(new byte[] {2}); // the same lane: its credit was given back
                return null;
            });
            assertArrayEquals(new byte[] {2}, in.read());
            after.join();
        }
    }
}
