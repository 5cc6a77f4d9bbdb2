package dev.weft.samples.net;

import dev.weft.csp.Weft;
import dev.weft.net.TcpConnection;
import dev.weft.net.TcpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * An echo server, a fiber per connection: each sends back what it reads until its client ends the stream.
 * {@code java -cp "$NCP" dev.weft.samples.net.EchoServer [port]} (default 7007), then {@code nc localhost 7007}.
 */
public final class EchoServer {
    private EchoServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7007;
        TcpServer server = TcpServer.bind(new InetSocketAddress("127.0.0.1", port));
        System.out.println("echoing on " + server.address());
        Weft.run(() -> serve(server));
    }

    /** Accepts until the server is closed, each connection echoed by a fiber of its own. */
    @dev.weft.csp.Pausable
    public static void serve(TcpServer server) {
        try {
            for (;;) {
                TcpConnection c = server.accept();
                Weft.spawn(() -> echo(c));
            }
        } catch (ClosedChannelException e) {
            // closed: stop accepting
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @dev.weft.csp.Pausable
    private static void echo(TcpConnection c) {
        try (c) {
            ByteBuffer buf = ByteBuffer.allocate(4096);
            while (c.read(buf) >= 0) {
                buf.flip();
                c.write(buf);
                buf.clear();
            }
        } catch (IOException e) {
            // the client reset or the server closed: this connection is over
        }
    }
}
