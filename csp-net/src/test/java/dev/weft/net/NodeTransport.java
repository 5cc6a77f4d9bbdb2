package dev.weft.net;

import dev.weft.net.transport.Transport;

/** Reaches a node's transport from tests in other packages (the transport's tests count frames and flushes). */
public final class NodeTransport {
    private NodeTransport() {
    }

    public static Transport of(Node node) {
        return node.transport();
    }
}
