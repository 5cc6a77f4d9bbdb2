/**
 * Weft's networked channels: the API ({@code dev.weft.net}), the default codec ({@code dev.weft.net.codec}) and
 * launching ({@code dev.weft.net.launch}); the channel layer, the transport and the carriers' pollers stay inside
 * (see {@code docs/net.md}, "Packages").
 */
@SuppressWarnings("requires-automatic") // Kryo 5 is an automatic module (a stable Automatic-Module-Name)
module dev.weft.net {
    requires transitive dev.weft.csp;
    requires java.management; // a launched worker's JVM flags
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires com.esotericsoftware.kryo;

    exports dev.weft.net;
    exports dev.weft.net.codec;
    exports dev.weft.net.launch;
    // Kryo reads and writes a channel's location (it travels over channels) field by field.
    opens dev.weft.net to com.esotericsoftware.kryo;
}
