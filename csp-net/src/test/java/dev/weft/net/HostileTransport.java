package dev.weft.net;

import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import dev.weft.net.transport.LinkListener;
import dev.weft.net.transport.Transport;
import dev.weft.net.transport.TransportConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A transport without the channel layer: it speaks the link protocol correctly and sends any frame. */
public final class HostileTransport implements LinkListener, AutoCloseable {
    public final Transport transport;
    /** Why its link was lost (the node it attacked refused it). */
    public final CompletableFuture<String> lost = new CompletableFuture<>();
    /** The first channel-layer frame the attacked node sent back. */
    public final CompletableFuture<Frame> answered = new CompletableFuture<>();

    /** Its links prove {@code secret} (null: none). */
    public HostileTransport(String secret) {
        transport = Transport.start(new TransportConfig("127.0.0.1", 0, secret, null, Duration.ofSeconds(1),
                Duration.ofSeconds(5), 16 << 20), this, TestCarriers.loops());
    }

    @Override
    public void received(Link link, byte type, long channel, long number, byte[] payload) {
        Frame frame = new Frame(type, channel, number, payload);
        answered.complete(frame);
    }

    @Override
    public void lost(Link link, String why) {
        lost.complete(why);
    }

    @Override
    public void close() {
        transport.close();
    }
}
