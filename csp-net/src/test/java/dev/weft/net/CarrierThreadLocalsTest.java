package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.runClients;
import static dev.weft.net.Sockets.serveEach;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Scheduler;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fibers of a scheduler whose carriers poll sockets run where Netty's object pools recycle (its
 * {@code FastThreadLocal}s are cleared as the carrier ends), so a read and a write reuse Netty's objects instead of
 * allocating them anew; and the copies between Netty's buffers and the caller's heap buffers keep the caller's
 * buffer's offset, position and limit.
 */
class CarrierThreadLocalsTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 1, 2, 1, 2})
    @Timeout(120)
    void socketFibersRunWhereNettyRecyclesAndCopiesKeepTheBuffersBounds(int carriers) throws Exception {
        int connections = 8, requests = 200;
        AtomicInteger slices = new AtomicInteger(), withoutRecycling = new AtomicInteger();
        try (Scheduler s = Scheduler.create(carriers); TcpServer server = TcpServer.bind(anyPort())) {
            serveEach(s, server, c -> {
                try (c) {
                    // Read into, and write from, views of an array with an offset: 3 bytes before and after.
                    ByteBuffer whole = ByteBuffer.allocate(3 + 64 + 3);
                    whole.position(3).limit(3 + 64);
                    ByteBuffer view = whole.slice();
                    while (c.read(view) >= 0) {
                        slices.incrementAndGet();
                        if (!FastThreadLocalThread.currentThreadWillCleanupFastThreadLocals()) {
                            withoutRecycling.incrementAndGet();
                        }
                        view.flip();
                        c.write(view);
                        view.clear();
                    }
                }
            });
            // One connection first: its first read plugs the pollers in, and a carrier that is inside a slice
            // then enters them only once that slice ends; every slice that starts afterwards runs inside.
            runClients(1, i -> echoes(server, i, 1));
            slices.set(0);
            withoutRecycling.set(0);
            runClients(connections, i -> echoes(server, i, requests));
        }
        assertEquals(0, withoutRecycling.get(), withoutRecycling + " of " + slices
                + " reads resumed on a thread where Netty's object pools do not recycle");
    }

    /** A client that sends {@code requests} messages of 8 bytes and checks that each comes back. */
    private static void echoes(TcpServer server, int i, int requests) throws Exception {
        try (Socket socket = new Socket(server.address().getAddress(), server.address().getPort())) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            for (int r = 0; r < requests; r++) {
                byte[] sent = {(byte) i, (byte) r, (byte) (r >> 8), 4, 5, 6, 7, 8};
                out.write(sent);
                byte[] back = new byte[sent.length];
                in.readFully(back);
                assertArrayEquals(sent, back);
            }
        }
    }
}
