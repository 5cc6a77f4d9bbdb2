package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.awaitTrue;
import static dev.weft.net.Sockets.io;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import io.netty.channel.epoll.Epoll;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a connection asks its socket for bytes: it stays asked while its reader keeps up (no change of the
 * socket's epoll interest per read, which costs an epoll_ctl each way), and stops once its reader falls behind
 * (what a reader does not take stays in the kernel).
 */
class TcpReadingTest {
    private static final int EPOLLIN = 0x1; // sys/epoll.h
    /** The largest single read of Netty's adaptive allocator, the default of every channel. */
    private static final int LARGEST_READ = 64 * 1024;

    /** Whether epoll watches the channel's socket for input (Netty keeps that in the channel: no public view). */
    static boolean watchedForInput(io.netty.channel.Channel ch) {
        try {
            Class<?> epollChannel = Class.forName("io.netty.channel.epoll.AbstractEpollChannel");
            Method isFlagSet = epollChannel.getDeclaredMethod("isFlagSet", int.class);
            isFlagSet.setAccessible(true);
            return (boolean) isFlagSet.invoke(ch, EPOLLIN);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Netty's epoll channel changed: " + e, e);
        }
    }

    /**
     * 200 requests and replies, each read returning the whole request: after every read the socket is still
     * watched for input, as the carrier that ran the read left it. Asked per read, the interest was dropped at
     * the end of each read and registered again by the next (two epoll_ctl calls and a task per request).
     */
    @RepeatedTest(3)
    @Timeout(60)
    void aReaderThatKeepsUpLeavesTheSocketWatched() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll only");
        int requests = 200;
        AtomicInteger reads = new AtomicInteger(), unwatched = new AtomicInteger();
        try (Scheduler s = Scheduler.create(1); TcpServer server = TcpServer.bind(anyPort())) {
            Weft.spawn(s, io(() -> {
                try (TcpConnection c = server.accept()) {
                    ByteBuffer buf = ByteBuffer.allocate(64);
                    while (c.read(buf) >= 0) {
                        reads.incrementAndGet();
                        if (!watchedForInput(c.channel())) { // on the carrier that polled the socket
                            unwatched.incrementAndGet();
                        }
                        buf.flip();
                        c.write(buf);
                        buf.clear();
                    }
                }
            }));
            try (Socket client = new Socket()) {
                client.setTcpNoDelay(true);
                client.connect(server.address());
                OutputStream out = client.getOutputStream();
                DataInputStream in = new DataInputStream(client.getInputStream());
                for (int i = 0; i < requests; i++) {
                    out.write(i);
                    assertEquals(i & 0xff, in.readUnsignedByte());
                }
            }
        }
        assertEquals(requests, reads.get());
        assertEquals(0, unwatched.get(), "reads after which the socket was no longer watched for input");
    }

    /**
     * A reader that stops after one byte of a megabyte: the connection stops reading within two reads, holding
     * at most two reads' worth (the rest stays in the kernel and holds the peer back); then every byte arrives
     * in order once it reads again.
     */
    @Test
    @Timeout(60)
    void aReaderThatFallsBehindStopsTheReading() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll only");
        int total = 1 << 20;
        One2OneChannel<TcpConnection> stopped = Channel.one2one();
        One2OneChannel<Boolean> goOn = Channel.one2one();
        AtomicInteger checked = new AtomicInteger();
        try (Scheduler s = Scheduler.create(1); TcpServer server = TcpServer.bind(anyPort())) {
            Weft.spawn(s, io(() -> {
                try (TcpConnection c = server.accept()) {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    c.read(one);
                    stopped.out().write(c);
                    goOn.in().read();
                    ByteBuffer buf = ByteBuffer.allocate(8192);
                    int n = 1, r;
                    while ((r = c.read(buf)) >= 0) {
                        for (int i = 0; i < r; i++) {
                            if (buf.get(i) != (byte) (n + i)) {
                                throw new AssertionError("byte " + (n + i) + " out of order");
                            }
                        }
                        n += r;
                        buf.clear();
                    }
                    checked.set(n);
                }
            }));
            try (Socket client = new Socket()) {
                client.connect(server.address());
                Thread writer = new Thread(() -> {
                    try {
                        byte[] bytes = new byte[total];
                        for (int i = 0; i < total; i++) {
                            bytes[i] = (byte) i;
                        }
                        client.getOutputStream().write(bytes);
                        client.shutdownOutput();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                writer.start();
                TcpConnection served = stopped.in().read();
                awaitTrue("the socket no longer watched for input", () -> !watchedFromItsLoop(served));
                int held = served.receivedBytes();
                assertTrue(held <= 2 * LARGEST_READ, held + " bytes held for a reader that stopped");
                goOn.out().write(true);
                writer.join();
                awaitTrue("the reader at the end of the stream", () -> checked.get() > 0);
            }
        }
        assertEquals(total, checked.get());
    }

    /** {@link #watchedForInput}, asked on the socket's loop (its state is the loop's). */
    private static boolean watchedFromItsLoop(TcpConnection c) {
        try {
            return c.channel().eventLoop().submit(() -> watchedForInput(c.channel())).get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
