package dev.weft.bench.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.TcpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Weft load server answers every request exactly once, on a keep-alive connection: one request at a time
 * (its answer written again and again from one buffer) and several in one write.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadServerTest {
    private static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void answersEachRequestOnceAloneOrPipelined() throws Exception {
        for (int carriers = 1; carriers <= 2; carriers++) {
            try (Scheduler s = Scheduler.create(carriers)) {
                for (int i = 0; i < 20; i++) {
                    serveOneClient(s);
                }
            }
        }
    }

    /** One connection: five requests one by one, then three in one write, then the end of the stream. */
    private static void serveOneClient(Scheduler s) throws Exception {
        CompletableFuture<InetSocketAddress> bound = new CompletableFuture<>();
        Thread server = new Thread(() -> Weft.run(s, () -> {
            try (TcpServer listening = TcpServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                bound.complete(listening.address());
                LoadServer.serve(listening.accept());
            } catch (IOException e) {
                bound.completeExceptionally(e);
                throw new UncheckedIOException(e);
            }
        }));
        server.start();
        try (Socket client = new Socket()) {
            client.connect(bound.get(30, TimeUnit.SECONDS), 30_000);
            client.setSoTimeout(30_000);
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            for (int i = 0; i < 5; i++) {
                out.write(REQUEST);
                assertArrayEquals(LoadServer.RESPONSE, in.readNBytes(LoadServer.RESPONSE.length));
            }
            byte[] three = new byte[REQUEST.length * 3];
            for (int i = 0; i < 3; i++) {
                System.arraycopy(REQUEST, 0, three, i * REQUEST.length, REQUEST.length);
            }
            out.write(three);
            assertArrayEquals(LoadServer.responses(3), in.readNBytes(LoadServer.RESPONSE.length * 3));
            client.shutdownOutput();
            assertEquals(-1, in.read()); // nothing more: the server answered each request once, then closed
        }
        server.join(30_000);
        assertFalse(server.isAlive());
    }
}
