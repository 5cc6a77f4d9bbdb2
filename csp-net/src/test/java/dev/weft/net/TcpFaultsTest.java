package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.awaitPausedIn;
import static dev.weft.net.Sockets.awaitTrue;
import static dev.weft.net.Sockets.io;
import static dev.weft.net.Sockets.runClients;
import static dev.weft.net.Sockets.serveEach;
import static dev.weft.net.Sockets.liveFibers;
import static dev.weft.net.Sockets.openFds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Peers that reset, go quiet, churn or read slowly; a server closed under its waiting fibers. */
class TcpFaultsTest {
    /** A plain socket that resets its connection (RST) when closed. */
    private static Socket resetting(TcpServer server) throws IOException {
        Socket s = new Socket(server.address().getAddress(), server.address().getPort());
        s.setSoLinger(true, 0);
        return s;
    }

    @Test
    @Timeout(60)
    void aResetMidReadIsAnIOExceptionNeverTheEndOfTheStream() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = Scheduler.create(workers); TcpServer server = TcpServer.bind(anyPort())) {
                AtomicReference<Object> outcome = new AtomicReference<>();
                Fiber reader = Weft.spawn(s, () -> {
                    try (TcpConnection c = server.accept()) {
                        ByteBuffer buf = ByteBuffer.allocate(16);
                        for (;;) {
                            if (c.read(buf) < 0) {
                                outcome.set("the end of the stream");
                                return;
                            }
                            buf.clear();
                        }
                    } catch (IOException e) {
                        outcome.set(e);
                    }
                });
                Socket peer = resetting(server);
                peer.getOutputStream().write(new byte[] {1, 2, 3});
                awaitPausedIn(s, "dev.weft.net.TcpConnection.read", 1);
                peer.close();
                reader.join();
                assertInstanceOf(IOException.class, outcome.get(), String.valueOf(outcome.get()));
                assertFalse(outcome.get() instanceof ClosedChannelException, String.valueOf(outcome.get()));
            }
        }
    }

    @Test
    @Timeout(60)
    void aResetMidWriteIsAnIOException() throws Exception {
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort())) {
            AtomicReference<Object> outcome = new AtomicReference<>();
            Fiber writer = Weft.spawn(s, () -> {
                try (TcpConnection c = server.accept()) {
                    for (;;) {
                        c.write(ByteBuffer.allocate(1 << 20));
                    }
                } catch (IOException e) {
                    outcome.set(e);
                }
            });
            Socket peer = resetting(server); // never reads
            awaitPausedIn(s, "dev.weft.net.TcpConnection.write", 1);
            peer.close();
            writer.join();
            assertInstanceOf(IOException.class, outcome.get(), String.valueOf(outcome.get()));
            assertFalse(outcome.get() instanceof ClosedChannelException, String.valueOf(outcome.get()));
        }
    }

    /** Clients that connect and never send, then go: their fibers end and the server holds no connection. */
    @Test
    @Timeout(120)
    void idleClientsThatGoAwayLeaveNoFiberAndNoConnection() throws Exception {
        int clients = 100;
        try (Scheduler s = Scheduler.create(2)) {
            TcpServer server = TcpServer.bind(anyPort());
            AtomicInteger ended = new AtomicInteger();
            Thread run = new Thread(() -> Weft.run(s, () -> {
                try {
                    for (;;) {
                        TcpConnection c = server.accept();
                        Weft.spawn(io(() -> {
                            try (c) {
                                while (c.read(ByteBuffer.allocate(64)) >= 0) {
                                    // an idle client sends nothing
                                }
                            } finally {
                                ended.incrementAndGet();
                            }
                        }));
                    }
                } catch (ClosedChannelException e) {
                    // the server closed: the run ends
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }));
            run.start();
            List<Socket> idle = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                idle.add(new Socket(server.address().getAddress(), server.address().getPort()));
            }
            awaitPausedIn(s, "dev.weft.net.TcpConnection.read", clients);
            assertEquals(clients, server.openConnections());
            assertEquals(clients + 1, liveFibers(s)); // main, accepting, and one per connection
            for (Socket c : idle) {
                c.close();
            }
            awaitTrue("every connection's fiber ended", () -> ended.get() == clients);
            awaitTrue("no connection is left open", () -> server.openConnections() == 0);
            server.close();
            run.join();
            awaitTrue("no fiber is left", () -> liveFibers(s) == 0);
        }
    }

    /** 10,000 connections opened and closed: the file descriptors come back to where they were. */
    @Test
    @Timeout(300)
    void tenThousandConnectionsChurnedGiveBackTheirFileDescriptors() throws Exception {
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort())) {
            serveEach(s, server, c -> {
                try (c) {
                    c.read(ByteBuffer.allocate(1)); // the end of the stream
                }
            });
            Weft.run(s, io(() -> TcpConnection.connect(server.address()).close())); // the loop's own descriptors
            awaitTrue("the warm-up connection is closed", () -> server.openConnections() == 0);
            int before = openFds();
            AtomicInteger made = new AtomicInteger();
            Weft.run(s, () -> Parallel.forRange(0, 100, io(i -> {
                for (int k = 0; k < 100; k++) {
                    TcpConnection.connect(server.address()).close();
                    made.incrementAndGet();
                }
            })));
            assertEquals(10_000, made.get());
            awaitTrue("the server closed every connection", () -> server.openConnections() == 0);
            awaitTrue("descriptors back to " + before + " (now " + openFds() + ")", () -> openFds() <= before);
        }
    }

    /** A fast writer and a slow reader: the writer waits, and what it holds queued stays within the water marks. */
    @Test
    @Timeout(120)
    void aSlowReaderKeepsTheWritersMemoryBounded() throws Exception {
        long total = 32L << 20;
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort());
                Socket reader = new Socket(server.address().getAddress(), server.address().getPort())) {
            AtomicLong mostQueued = new AtomicLong();
            AtomicBoolean paused = new AtomicBoolean();
            Fiber writer = Weft.spawn(s, io(() -> {
                try (TcpConnection c = server.accept()) {
                    for (long sent = 0; sent < total; sent += 1 << 20) {
                        c.write(ByteBuffer.allocate(1 << 20));
                        mostQueued.accumulateAndGet(c.queuedBytes(), Math::max);
                    }
                }
            }));
            awaitPausedIn(s, "dev.weft.net.TcpConnection.write", 1); // the reader has not read yet
            InputStream in = reader.getInputStream();
            byte[] small = new byte[1024]; // and then reads slowly, a little at a time
            long got = 0;
            for (int r; (r = in.read(small)) >= 0; ) {
                got += r;
            }
            writer.join();
            assertEquals(total, got);
            long bound = TcpConnection.WATER_MARKS.high() + (64 << 10) + 4096; // one piece past the mark, and overhead
            assertTrue(mostQueued.get() <= bound, "queued " + mostQueued.get() + " bytes, bound " + bound);
        }
    }

    /**
     * Writes of every size, from heap buffers (with an offset) and direct ones, to readers that start only once
     * every writer waits for its full socket, then read a little at a time: a write goes straight to the socket
     * only while nothing is queued for it, so once the socket is full the rest queues and the next writes queue
     * behind it. Each reader gets every byte in order. On one carrier and on two, four connections at once.
     */
    @Test
    @Timeout(120)
    void writesOfEverySizeReachASlowReaderInOrder() throws Exception {
        int[] sizes = {1, 7, 1000, 70_000, 300_000, 13, 65_536, 2};
        int rounds = 32; // some 14 MB a connection: more than loopback's socket buffers hold
        long perConnection = rounds * (long) IntStream.of(sizes).sum();
        for (int carriers = 1; carriers <= 2; carriers++) {
            try (Scheduler s = Scheduler.create(carriers); TcpServer server = TcpServer.bind(anyPort())) {
                serveEach(s, server, c -> {
                    try (c) {
                        long at = 0;
                        for (int round = 0; round < rounds; round++) {
                            for (int i = 0; i < sizes.length; i++) {
                                ByteBuffer src = (i % 2 == 0) ? ByteBuffer.allocate(sizes[i] + 5).position(5).slice()
                                        : ByteBuffer.allocateDirect(sizes[i]);
                                for (int b = 0; b < sizes[i]; b++) {
                                    src.put(b, pattern(at + b));
                                }
                                c.write(src);
                                at += sizes[i];
                            }
                        }
                    }
                });
                List<Socket> readers = new ArrayList<>();
                try {
                    for (int r = 0; r < 4; r++) {
                        readers.add(new Socket(server.address().getAddress(), server.address().getPort()));
                    }
                    awaitPausedIn(s, "dev.weft.net.TcpConnection.write", 4);
                    int scheduler = carriers;
                    runClients(4, r -> {
                        Socket reader = readers.get(r);
                        reader.setSoTimeout(30_000);
                        InputStream in = reader.getInputStream();
                        byte[] small = new byte[512];
                        long got = 0;
                        for (int n; (n = in.read(small)) >= 0; ) {
                            for (int b = 0; b < n; b++) {
                                if (small[b] != pattern(got + b)) {
                                    throw new AssertionError(scheduler + " carriers: byte " + (got + b) + " is "
                                            + small[b] + ", written as " + pattern(got + b));
                                }
                            }
                            got += n;
                        }
                        assertEquals(perConnection, got);
                    });
                } finally {
                    for (Socket reader : readers) {
                        reader.close();
                    }
                }
            }
        }
    }

    /** The byte at {@code offset} of a connection's stream: a hash of the offset, so a byte out of place shows. */
    private static byte pattern(long offset) {
        return (byte) ((offset * 0x9E3779B97F4A7C15L) >>> 56);
    }

    /**
     * A writer that waits for a full socket resumes every time, on two carriers: a write queued by a fiber stolen
     * to the other carrier, run by the socket's carrier just before it waits in epoll, wakes the writer onto
     * that carrier's own queue, which must keep the carrier from waiting (the writer was left runnable while
     * both carriers slept). The peer reads with a bound, so a lost writer fails here with a fiber dump.
     */
    @Test
    @Timeout(300)
    void aWriterWaitingForAFullSocketAlwaysResumes() throws Exception {
        long total = 8L << 20;
        for (int round = 0; round < 20; round++) {
            try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort());
                    Socket reader = new Socket(server.address().getAddress(), server.address().getPort())) {
                reader.setSoTimeout(30_000);
                Fiber writer = Weft.spawn(s, io(() -> {
                    try (TcpConnection c = server.accept()) {
                        for (long sent = 0; sent < total; sent += 1 << 20) {
                            c.write(ByteBuffer.allocate(1 << 20));
                        }
                    }
                }));
                awaitPausedIn(s, "dev.weft.net.TcpConnection.write", 1);
                byte[] small = new byte[1024];
                long got = 0;
                try {
                    for (int r; (r = reader.getInputStream().read(small)) >= 0; ) {
                        got += r;
                    }
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("round " + round + ": the writer stopped after " + got + " bytes\n"
                            + s.dumpFibers(), e);
                }
                writer.join();
                assertEquals(total, got);
            }
        }
    }
}
