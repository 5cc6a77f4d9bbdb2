package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.io;
import static dev.weft.net.Sockets.awaitPausedIn;
import static dev.weft.net.Sockets.awaitTrue;
import static dev.weft.net.Sockets.pausedIn;
import static dev.weft.net.Sockets.readAll;
import static dev.weft.net.Sockets.readExactly;
import static dev.weft.net.Sockets.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Channel;
import dev.weft.csp.DeadlockException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Select;
import dev.weft.csp.Weft;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TcpTest {
    @Test
    @Timeout(60)
    void fibersEchoOverLoopbackOnOneAndTwoWorkers() {
        Sockets.onOneAndTwoWorkers(10, s -> {
            int clients = 20;
            List<String> replies = new ArrayList<>();
            Weft.run(s, io(() -> {
                TcpServer server = TcpServer.bind(anyPort());
                Weft.spawn(io(() -> {
                    for (int i = 0; i < clients; i++) {
                        TcpConnection c = server.accept();
                        Weft.spawn(io(() -> {
                            try (c) {
                                ByteBuffer buf = ByteBuffer.allocate(64);
                                while (c.read(buf) >= 0) {
                                    buf.flip();
                                    c.write(buf);
                                    buf.clear();
                                }
                            }
                        }));
                    }
                }));
                Parallel.forRange(0, clients, io(i -> {
                    try (TcpConnection c = TcpConnection.connect(server.address())) {
                        send(c, "hello " + i + ";");
                        send(c, "bye " + i);
                        c.shutdownOutput();
                        String reply = readAll(c);
                        synchronized (replies) {
                            replies.add(reply);
                        }
                    }
                }));
                server.close();
            }));
            assertEquals(clients, replies.size());
            for (int i = 0; i < clients; i++) {
                assertTrue(replies.contains("hello " + i + ";bye " + i), replies.toString());
            }
        });
    }

    /**
     * Connections waiting in the backlog are taken all at once by a read of the listening socket, not one per
     * poll round, nor 128 per read (a burst of thousands overflowed the backlog under load).
     */
    @Test
    @Timeout(60)
    void aBacklogIsAcceptedManyConnectionsPerRead() throws Exception {
        int waiting = 400;
        AtomicInteger reads = new AtomicInteger();
        try (Scheduler s = Scheduler.singleThreaded(); TcpServer server = TcpServer.bind(anyPort())) {
            server.channel().pipeline().addFirst(new io.netty.channel.ChannelInboundHandlerAdapter() {
                @Override
                public void channelReadComplete(io.netty.channel.ChannelHandlerContext ctx) {
                    reads.incrementAndGet();
                    ctx.fireChannelReadComplete();
                }
            });
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < waiting; i++) { // connected once the kernel queued them: all in the backlog
                    clients.add(new Socket(server.address().getAddress(), server.address().getPort()));
                }
                Weft.run(s, io(() -> {
                    for (int i = 0; i < waiting; i++) {
                        server.accept();
                    }
                }));
            } finally {
                for (Socket c : clients) {
                    c.close();
                }
            }
        }
        assertTrue(reads.get() <= 3, reads.get() + " reads of the listening socket for " + waiting
                + " connections waiting");
    }

    @Test
    @Timeout(30)
    void plainThreadsTalkToFibersBothWays() throws Exception {
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort())) {
            AtomicReference<String> fiberHeard = new AtomicReference<>();
            Fiber client = Weft.spawn(s, io(() -> {
                try (TcpConnection c = TcpConnection.connect(server.address())) {
                    send(c, "from a fiber");
                    c.shutdownOutput();
                    fiberHeard.set(readAll(c));
                }
            }));
            try (TcpConnection c = server.accept()) { // a plain thread: blocks
                assertEquals("from a fiber", readAll(c));
                send(c, "from a thread");
            }
            client.join();
            assertEquals("from a thread", fiberHeard.get());
        }
    }

    @Test
    @Timeout(30)
    void addressesOfBothEnds() throws Exception {
        try (TcpServer server = TcpServer.bind(anyPort());
                TcpConnection dialled = TcpConnection.connect(server.address());
                TcpConnection accepted = server.accept()) {
            assertNotEquals(0, server.address().getPort());
            assertEquals(server.address(), dialled.remoteAddress());
            assertEquals(dialled.localAddress(), accepted.remoteAddress());
            assertEquals(accepted.localAddress(), dialled.remoteAddress());
        }
    }

    @Test
    @Timeout(30)
    void readableIsAGuardBesideAChannelAndATimeout() {
        Sockets.onOneAndTwoWorkers(10, s -> {
            AtomicReference<String> log = new AtomicReference<>("");
            Weft.run(s, io(() -> {
                try (TcpServer server = TcpServer.bind(anyPort());
                        TcpConnection out = TcpConnection.connect(server.address());
                        TcpConnection in = server.accept()) {
                    One2OneChannel<String> quiet = Channel.one2one();
                    int first = new Alternative(quiet.in(), in.readable(), Guards.timeout(Duration.ofMillis(10))).select();
                    send(out, "ping");
                    int second = new Alternative(quiet.in(), in.readable(), Guards.timeout(Duration.ofSeconds(30))).select();
                    String got = readExactly(in, 4);
                    int third = new Select()
                            .ready(in.readable(), () -> log.set(log.get() + "readable"))
                            .timeout(Duration.ofMillis(10), () -> log.set(log.get() + "timeout"))
                            .run();
                    out.shutdownOutput();
                    new Select().ready(in.readable(), () -> log.set(log.get() + ",end")).run();
                    log.set(first + "," + second + "," + got + "," + third + "," + log.get() + "," + in.read(ByteBuffer.allocate(1)));
                }
            }));
            assertEquals("2,1,ping,1,timeout,end,-1", log.get());
        });
    }

    @Test
    @Timeout(30)
    void acceptableIsAGuard() {
        Sockets.onOneAndTwoWorkers(10, s -> {
            AtomicReference<String> log = new AtomicReference<>();
            Weft.run(s, io(() -> {
                try (TcpServer server = TcpServer.bind(anyPort())) {
                    int idle = new Alternative(server.acceptable(), Guards.timeout(Duration.ofMillis(10))).select();
                    Fiber dialler = Weft.spawn(io(() -> TcpConnection.connect(server.address()).close()));
                    int ready = new Alternative(server.acceptable(), Guards.timeout(Duration.ofSeconds(30))).select();
                    try (TcpConnection c = server.accept()) {
                        log.set(idle + "," + ready + "," + c.read(ByteBuffer.allocate(1)));
                    }
                    dialler.join();
                }
            }));
            assertEquals("1,0,-1", log.get());
        });
    }

    @Test
    @Timeout(30)
    void aRefusedConnectionIsAConnectException() throws Exception {
        InetSocketAddress gone;
        try (TcpServer server = TcpServer.bind(anyPort())) {
            gone = server.address();
        }
        InetSocketAddress at = gone;
        assertThrows(ConnectException.class, () -> TcpConnection.connect(at));
        try (Scheduler s = Scheduler.singleThreaded()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Weft.run(s, io(() -> {
                try {
                    TcpConnection.connect(at);
                } catch (IOException e) {
                    failure.set(e);
                }
            }));
            assertInstanceOf(ConnectException.class, failure.get());
            assertTrue(failure.get().getMessage().contains(at.toString()), failure.get().getMessage());
        }
    }

    @Test
    @Timeout(30)
    void aPortInUseCannotBeBound() throws Exception {
        try (TcpServer server = TcpServer.bind(anyPort())) {
            IOException e = assertThrows(IOException.class, () -> TcpServer.bind(server.address()));
            assertTrue(e.getMessage().contains(server.address().toString()), e.getMessage());
        }
    }

    @Test
    @Timeout(30)
    void afterCloseEveryOperationThrowsClosedChannel() throws Exception {
        TcpServer server = TcpServer.bind(anyPort());
        TcpConnection c = TcpConnection.connect(server.address());
        c.close();
        c.close(); // idempotent
        assertThrows(ClosedChannelException.class, () -> c.read(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> c.write(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, c::shutdownOutput);
        assertEquals(0, new Alternative(c.readable()).selectNow()); // ready: the read that follows throws
        server.close();
        server.close();
        assertThrows(ClosedChannelException.class, server::accept);
        assertEquals(0, new Alternative(server.acceptable()).selectNow());
    }

    @Test
    @Timeout(30)
    void writingAfterShutdownOutputThrowsClosedChannelAndReadingGoesOn() throws Exception {
        try (TcpServer server = TcpServer.bind(anyPort());
                TcpConnection client = TcpConnection.connect(server.address());
                TcpConnection served = server.accept()) {
            send(client, "question");
            client.shutdownOutput();
            assertThrows(ClosedChannelException.class, () -> send(client, "more"));
            assertEquals("question", readAll(served)); // the end of the stream after what was written
            send(served, "answer"); // half closed: the other direction goes on
            served.close();
            assertEquals("answer", readAll(client));
        }
    }

    /**
     * A half-close between fibers, on one and two carriers (their sockets on the carriers' loops): the peer's end
     * of the stream comes after what it wrote, and the other direction goes on.
     */
    @Test
    @Timeout(60)
    void fibersHalfCloseAndTheOtherDirectionGoesOn() {
        Sockets.onOneAndTwoWorkers(10, s -> Weft.run(s, io(() -> {
            try (TcpServer server = TcpServer.bind(anyPort())) {
                Fiber answering = Weft.spawn(io(() -> {
                    try (TcpConnection served = server.accept()) {
                        String question = readAll(served);
                        send(served, "answer to " + question);
                    }
                }));
                try (TcpConnection client = TcpConnection.connect(server.address())) {
                    send(client, "question");
                    client.shutdownOutput();
                    assertEquals("answer to question", readAll(client));
                }
                answering.join();
            }
        })));
    }

    /**
     * A fiber that half-closes and then closes a connection whose bytes are all handed to the socket does both at
     * once, on the socket's loop: no empty write goes down the pipeline to wait behind bytes that are not there
     * (its buffer and promise would reach the write path only at closes, and their types would throw away its
     * compiled code). On one carrier and on two, where the other may hold the loop as the fiber closes.
     */
    @Test
    @Timeout(60)
    void closingWithEverythingSentWritesNothingMore() {
        // The answer goes straight to the socket (DirectSend), or down the pipeline when another carrier holds the loop.
        Sockets.onOneAndTwoWorkers(20, s -> {
            List<Integer> writes = answerThenClose(s);
            assertTrue(writes.isEmpty() || writes.equals(List.of(6)), "writes down the pipeline: " + writes);
        });
    }

    /** A fiber's connection closed after its scheduler stopped closes quietly: its carrier closed the socket. */
    @Test
    @Timeout(30)
    void closingAfterTheSchedulerStoppedIsQuiet() throws Exception {
        try (TcpServer server = TcpServer.bind(anyPort())) {
            AtomicReference<TcpConnection> made = new AtomicReference<>();
            try (Scheduler s = Scheduler.create(2)) {
                Weft.run(s, io(() -> {
                    TcpConnection c = TcpConnection.connect(server.address());
                    send(c, "hello");
                    made.set(c);
                }));
            }
            // The carrier's loop ends soon after the scheduler: a close queued to it then would never run.
            assertTrue(made.get().channel().eventLoop().terminationFuture().await(10, TimeUnit.SECONDS));
            made.get().close();
            made.get().close();
            assertThrows(ClosedChannelException.class, () -> send(made.get(), "more"));
            try (TcpConnection served = server.accept()) {
                assertEquals("hello", readAll(served));
            }
        }
    }

    /** The sizes of the writes that reached the socket of a served fiber that answers, half-closes and closes. */
    private static List<Integer> answerThenClose(Scheduler s) {
        List<Integer> writes = Collections.synchronizedList(new ArrayList<>());
        Weft.run(s, io(() -> {
            try (TcpServer server = TcpServer.bind(anyPort())) {
                Fiber answering = Weft.spawn(io(() -> {
                    TcpConnection served = server.accept();
                    served.channel().pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
                        @Override
                        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise)
                                throws Exception {
                            writes.add(((ByteBuf) msg).readableBytes());
                            super.write(ctx, msg, promise);
                        }
                    });
                    send(served, "answer");
                    served.shutdownOutput();
                    served.close();
                }));
                try (TcpConnection client = TcpConnection.connect(server.address())) {
                    assertEquals("answer", readAll(client));
                }
                answering.join();
            }
        }));
        return writes;
    }

    /** Close wakes a waiting read and a waiting accept, of fibers and of threads. */
    @Test
    @Timeout(30)
    void closeWakesReadersAndAcceptorsWithClosedChannel() throws Exception {
        Sockets.onOneAndTwoWorkers(10, s -> {
            List<Throwable> thrown = new ArrayList<>();
            Weft.run(s, io(() -> {
                TcpServer server = TcpServer.bind(anyPort());
                TcpConnection client = TcpConnection.connect(server.address());
                TcpConnection served = server.accept();
                Fiber reader = Weft.spawn(() -> expectClosed(thrown, () -> served.read(ByteBuffer.allocate(8))));
                Fiber acceptor = Weft.spawn(() -> expectClosed(thrown, server::accept));
                Sockets.yieldUntilPausedIn(s, "dev.weft.net.TcpConnection.read", 1);
                Sockets.yieldUntilPausedIn(s, "dev.weft.net.TcpServer.accept", 1);
                server.close(); // and the connections it accepted
                reader.join();
                acceptor.join();
                client.close();
            }));
            assertEquals(2, thrown.size(), thrown.toString());
            thrown.forEach(t -> assertInstanceOf(ClosedChannelException.class, t));
        });
        try (TcpServer server = TcpServer.bind(anyPort())) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    server.accept();
                } catch (IOException e) {
                    thrown.set(e);
                }
            });
            t.start();
            Nodes.awaitBlocked(t);
            server.close();
            t.join();
            assertInstanceOf(ClosedChannelException.class, thrown.get());
        }
    }

    interface IoCall {
        @dev.weft.csp.Pausable
        Object call() throws IOException;
    }

    @dev.weft.csp.Pausable
    private static void expectClosed(List<Throwable> thrown, IoCall call) {
        try {
            call.call();
            throw new AssertionError("returned instead of throwing ClosedChannelException");
        } catch (IOException e) {
            synchronized (thrown) {
                thrown.add(e);
            }
        }
    }

    @Test
    @Timeout(30)
    void aCancelledReadTookNothingAndTheConnectionStaysOpen() {
        Sockets.onOneAndTwoWorkers(10, s -> {
            AtomicReference<String> got = new AtomicReference<>();
            AtomicReference<Throwable> cancelled = new AtomicReference<>();
            Weft.run(s, io(() -> {
                try (TcpServer server = TcpServer.bind(anyPort());
                        TcpConnection client = TcpConnection.connect(server.address());
                        TcpConnection served = server.accept()) {
                    Fiber reader = Weft.spawn(io(() -> {
                        try {
                            served.read(ByteBuffer.allocate(8));
                        } catch (CancelledException e) {
                            cancelled.set(e);
                        }
                    }));
                    Sockets.yieldUntilPausedIn(s, "dev.weft.net.TcpConnection.read", 1);
                    reader.cancel();
                    reader.join();
                    send(client, "kept");
                    got.set(readExactly(served, 4));
                }
            }));
            assertInstanceOf(CancelledException.class, cancelled.get());
            assertEquals("kept", got.get());
        });
    }

    /** A cancelled write sent src.position() bytes, then the end of the stream. */
    @Test
    @Timeout(60)
    void aCancelledWriteClosesAfterExactlyWhatItSent() throws Exception {
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort());
                Socket peer = new Socket()) {
            // Small from the start: a window shrunk after the handshake leaves the kernel's sender probing a
            // zero window with exponential back-off, so draining can stall for a minute.
            peer.setReceiveBufferSize(4096);
            peer.connect(server.address());
            TcpConnection served = server.accept();
            ByteBuffer big = ByteBuffer.allocate(16 << 20);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Fiber writer = Weft.spawn(s, io(() -> {
                try {
                    served.write(big);
                } catch (CancelledException e) {
                    outcome.set(e);
                }
            }));
            // The peer does not read: the writer waits. Each step below is bounded, so a failure names its step.
            awaitTrue("the writer pauses in write", () -> writer.isDone() || pausedIn(s, WRITE_SITE) >= 1);
            if (writer.isDone()) {
                writer.join(); // rethrows the writer's failure
                throw new AssertionError("the writer ended without pausing, at " + big.position() + " bytes");
            }
            writer.cancel();
            assertTrue(writer.join(Duration.ofSeconds(20)), () -> "the cancelled writer goes on:\n" + s.dumpFibers());
            assertInstanceOf(CancelledException.class, outcome.get());
            assertTrue(big.position() > 0 && big.position() < big.capacity(), String.valueOf(big.position()));
            assertThrows(ClosedChannelException.class, () -> served.read(ByteBuffer.allocate(1)));
            peer.setSoTimeout(20_000); // a missing end of stream fails here, with what did arrive
            assertEquals(big.position(), drain(peer.getInputStream()));
        }
    }

    private static final String WRITE_SITE = "dev.weft.net.TcpConnection.write";

    private static long drain(InputStream in) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long n = 0;
        try {
            for (int r; (r = in.read(buf)) >= 0; ) {
                n += r;
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no end of stream after " + n + " bytes", e);
        }
        return n;
    }

    @Test
    @Timeout(30)
    void anInterruptedThreadStopsReadingAndTheBytesStay() throws Exception {
        try (TcpServer server = TcpServer.bind(anyPort());
                TcpConnection client = TcpConnection.connect(server.address());
                TcpConnection served = server.accept()) {
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    served.read(ByteBuffer.allocate(8));
                    outcome.set("returned");
                } catch (CancelledException e) {
                    outcome.set(Thread.currentThread().isInterrupted() ? e : "interrupt status lost");
                } catch (IOException e) {
                    outcome.set(e);
                }
            });
            t.start();
            Nodes.awaitBlocked(t);
            t.interrupt();
            t.join();
            assertInstanceOf(CancelledException.class, outcome.get());
            send(client, "still here");
            assertEquals("still here", readExactly(served, 10));
        }
    }

    /**
     * A fiber waiting in accept is never part of a deadlock report: a deadlocked run beside it is reported (the
     * detector ran while the pool rested), the accepting run goes on and ends once a client comes.
     */
    @Test
    @Timeout(60)
    void aFiberWaitingOnASocketIsNeverADeadlock() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = Scheduler.create(workers)) {
                AtomicReference<InetSocketAddress> at = new AtomicReference<>();
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread runner = new Thread(() -> {
                    try {
                        Weft.run(s, io(() -> {
                            try (TcpServer server = TcpServer.bind(anyPort())) {
                                at.set(server.address());
                                outcome.set(readAll(server.accept()));
                            }
                        }));
                    } catch (Throwable t) {
                        outcome.set(t);
                    }
                });
                runner.start();
                awaitPausedIn(s, "dev.weft.net.TcpServer.accept", 1);
                assertThrows(DeadlockException.class, () -> Weft.run(s, () -> Channel.one2one().in().read()));
                assertTrue(runner.isAlive());
                try (Socket client = new Socket(at.get().getAddress(), at.get().getPort())) {
                    client.getOutputStream().write("late".getBytes(StandardCharsets.UTF_8));
                }
                runner.join();
                assertEquals("late", outcome.get());
            }
        }
    }

    @Test
    @Timeout(30)
    void manyFibersConnectAtOnceFromTwoWorkers() {
        try (Scheduler s = Scheduler.create(2)) {
            AtomicInteger served = new AtomicInteger();
            Weft.run(s, io(() -> {
                try (TcpServer server = TcpServer.bind(anyPort())) {
                    Weft.spawn(io(() -> {
                        for (int i = 0; i < 500; i++) {
                            TcpConnection c = server.accept();
                            Weft.spawn(io(() -> {
                                try (c) {
                                    send(c, readExactly(c, 5).toUpperCase());
                                    served.incrementAndGet();
                                }
                            }));
                        }
                    }));
                    Parallel.forRange(0, 500, io(i -> {
                        try (TcpConnection c = TcpConnection.connect(server.address())) {
                            send(c, "hello");
                            if (!readAll(c).equals("HELLO")) {
                                throw new UncheckedIOException(new IOException("wrong reply"));
                            }
                        }
                    }));
                }
            }));
            assertEquals(500, served.get());
        }
    }
}
