package dev.weft.net.transport;

/** A node in a process of its own, for tests that kill it: prints its address, then echoes every frame. */
public final class EchoNode {
    private EchoNode() {
    }

    /** Runs until killed or its standard input closes. */
    public static void main(String[] args) throws Exception {
        LinkListener echo = new LinkListener() {
            @Override
            public void received(Link link, byte type, long channel, long number, byte[] payload) {
                Frame frame = new Frame(type, channel, number, payload);
                link.send(frame);
            }

            @Override
            public void lost(Link link, String why) {
                // Nothing to clean up.
            }
        };
        try (Transport node = Transport.start(Nodes.config(), echo, dev.weft.net.TestCarriers.loops())) {
            System.out.println(node.address());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait
            }
        }
    }
}
