package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.serveEach;
import static dev.weft.net.Sockets.runClients;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Scheduler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * A fiber that a socket's bytes wake runs on the carrier that polled them: work stealing balances fibers, never
 * half-read sockets, so a request is read, and its reply written, on one thread with no hand-off.
 */
class SocketCarrierTest {
    /** Notes the thread that last delivered bytes to the connection: the carrier that polled its socket. */
    static final class Poller extends ChannelInboundHandlerAdapter {
        volatile Thread last;

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            last = Thread.currentThread();
            ctx.fireChannelReadComplete();
        }
    }

    /**
     * Two carriers, 16 connections from plain threads, 400 requests each: every read resumes its fiber on the
     * thread that polled the bytes (the socket's carrier, or an idle one that polled aside for it while it was
     * stuck), never on a thief that took the woken fiber away. A read whose bytes come as its fiber pauses
     * (a helper polling aside for its carrier, stuck in a first slice that loads classes) resumes where it ran:
     * a few such races are allowed. With thieves taking woken fibers, one read in seven to one in three resumed
     * elsewhere.
     */
    @RepeatedTest(3)
    @Timeout(120)
    void aFiberResumesFromItsReadsOnTheCarrierThatPolledThem() throws Exception {
        int connections = 16, requests = 400;
        AtomicInteger resumes = new AtomicInteger(), elsewhere = new AtomicInteger();
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort())) {
            serveEach(s, server, c -> {
                Poller poller = new Poller();
                c.channel().pipeline().addFirst(poller);
                try (c) {
                    ByteBuffer buf = ByteBuffer.allocate(64);
                    while (c.read(buf) >= 0) {
                        resumes.incrementAndGet();
                        if (Thread.currentThread() != poller.last) {
                            elsewhere.incrementAndGet();
                        }
                        buf.flip();
                        c.write(buf);
                        buf.clear();
                    }
                }
            });
            AtomicInteger answered = new AtomicInteger();
            runClients(connections, i -> {
                try (Socket socket = new Socket(server.address().getAddress(), server.address().getPort())) {
                    socket.setTcpNoDelay(true);
                    OutputStream out = socket.getOutputStream();
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    for (int r = 0; r < requests; r++) {
                        out.write(new byte[] {1, 2, 3, 4});
                        in.readFully(new byte[4]);
                        answered.incrementAndGet();
                    }
                }
            });
            assertEquals(connections * requests, answered.get());
        }
        assertTrue(elsewhere.get() <= resumes.get() / 100, elsewhere.get() + " of " + resumes.get()
                + " reads resumed on another thread than the carrier that polled their bytes");
    }
}
