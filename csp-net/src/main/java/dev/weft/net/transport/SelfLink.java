package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import io.netty.channel.EventLoop;

/** The link from a node to itself: its frames reach the node's own listener on the event loop, no socket. */
final class SelfLink extends QueuedLink {
    SelfLink(NodeAddress self, EventLoop loop, LinkListener listener, int maxFrameBytes) {
        super(self, loop, listener, maxFrameBytes);
    }

    @Override
    boolean ready() {
        return true;
    }

    @Override
    public boolean cameUp() {
        return true;
    }

    @Override
    void write(Frame frame) {
        deliver(frame);
    }

    @Override
    void flush(int frames) {
        // Delivered as written.
    }

    @Override
    void release(String toPeer) {
        // Holds nothing.
    }
}
