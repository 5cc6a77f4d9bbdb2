package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.awaitTrue;
import static dev.weft.net.Sockets.io;
import static dev.weft.net.Sockets.serveEach;
import static dev.weft.net.Sockets.runClients;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.internal.sockets.SocketLoops;
import dev.weft.net.poll.CarrierLoop;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fiber writes to its socket from whichever carrier it runs on: when the socket's own carrier is busy in a long
 * slice, the write goes out inline from the writer's carrier instead of waiting, queued, for that carrier's next
 * poll; and a connection's writes keep their order however they mix inline and queued.
 */
class CrossCarrierWriteTest {
    /** Counts the writes that reach the socket inside the writer's own call, on its thread, and the others. */
    static final class WhereWritten extends ChannelOutboundHandlerAdapter {
        volatile Thread writing; // set by the writer around its call
        final AtomicInteger inline = new AtomicInteger(), queued = new AtomicInteger();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            (writing == Thread.currentThread() ? inline : queued).incrementAndGet();
            ctx.write(msg, promise);
        }
    }

    /**
     * Two carriers: a fiber dials (its socket lives on its carrier's loop) and then computes in one slice that
     * only ends once the peer has received the bytes; a fiber that the other, idle carrier runs writes them. They
     * reach the socket inside that write, on the writer's carrier, while the socket's carrier never polls.
     * Before, the write was a task on the busy carrier's loop, run later by a poll (the idle carrier's poll
     * aside, here; under load, the busy carrier's own poll at the end of its turn).
     */
    @RepeatedTest(20)
    @Timeout(60)
    void aWriteFromAnotherCarrierReachesTheSocketWhileItsCarrierIsInASlice() throws Exception {
        try (Scheduler s = Scheduler.create(2); ServerSocket peer = new ServerSocket(0, 16, anyPort().getAddress())) {
            AtomicReference<TcpConnection> dialled = new AtomicReference<>();
            AtomicReference<Thread> owner = new AtomicReference<>();
            WhereWritten where = new WhereWritten();
            AtomicBoolean received = new AtomicBoolean();
            Fiber busy = Weft.spawn(s, io(() -> {
                TcpConnection c = dialOnThisCarrier(peer);
                CarrierLoop loop = (CarrierLoop) c.channel().eventLoop();
                SocketLoops.inline(loop, () -> c.channel().pipeline().addFirst(where)); // added before any write
                owner.set(Thread.currentThread());
                dialled.set(c);
                while (!received.get()) {
                    Thread.onSpinWait(); // a slice that never pauses: this carrier polls nothing meanwhile
                }
                assertEquals(owner.get(), Thread.currentThread());
            }));
            peer.setSoTimeout(30_000); // socket calls ignore the test's timeout: bounded waits of their own
            try {
                awaitTrue("the connection is dialled", () -> dialled.get() != null || busy.isDone());
                if (dialled.get() == null) {
                    busy.join(); // throws what went wrong
                }
                try (Socket accepted = accept(peer, dialled.get())) {
                    writeFromTheOtherCarrier(s, accepted, dialled.get(), owner.get(), where);
                }
            } finally {
                received.set(true); // the busy fiber's slice ends, even if the test failed: else s could not close
            }
            busy.join();
        }
    }

    /**
     * A connection to {@code peer} whose socket lives on the calling fiber's carrier, which the fiber runs on once
     * connected. A connect that its carrier's first slice (loading classes) makes last is finished by the other
     * carrier's poll aside, which then runs the fiber: that connection is left for another.
     */
    @Pausable
    private static TcpConnection dialOnThisCarrier(ServerSocket peer) throws IOException {
        for (int attempt = 0; attempt < 10; attempt++) {
            TcpConnection c = TcpConnection.connect(new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort()));
            if (((CarrierLoop) c.channel().eventLoop()).carrier() == Thread.currentThread()) {
                return c;
            }
            c.close();
        }
        throw new AssertionError("10 connections resumed their fiber on another carrier than their socket's");
    }

    /** Accepts connections until {@code dialled}'s peer (those dialled before it were left). */
    private static Socket accept(ServerSocket peer, TcpConnection dialled) throws IOException {
        for (;;) {
            Socket accepted = peer.accept();
            if (accepted.getPort() == dialled.localAddress().getPort()) {
                accepted.setSoTimeout(30_000);
                return accepted;
            }
            accepted.close();
        }
    }

    /** The peer reads the bytes that a fiber on the idle carrier writes, while the socket's carrier computes. */
    private static void writeFromTheOtherCarrier(Scheduler s, Socket accepted, TcpConnection c, Thread owner,
            WhereWritten where) throws Exception {
        AtomicReference<Thread> writer = new AtomicReference<>();
        // Spawned by a plain thread: only the idle carrier takes it, the other never leaves its slice.
        Fiber write = Weft.spawn(s, io(() -> {
            writer.set(Thread.currentThread());
            where.writing = Thread.currentThread();
            try {
                c.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
            } finally {
                where.writing = null;
            }
        }));
        byte[] got = new byte[4];
        new DataInputStream(accepted.getInputStream()).readFully(got);
        write.join();
        assertEquals(List.of((byte) 1, (byte) 2, (byte) 3, (byte) 4), List.of(got[0], got[1], got[2], got[3]));
        assertNotEquals(owner, writer.get(), "the writer ran on the other carrier");
        // Inline, the bytes went straight to the socket (DirectSend), or down the pipeline if it could not take them.
        assertTrue(where.inline.get() <= 1, where.inline + " writes down the pipeline for one write");
        assertEquals(0, where.queued.get(), "queued for the busy carrier's loop");
        c.close();
    }

    /**
     * Sixteen connections to one server, each written to by its own fiber in many small numbered writes while the
     * carriers' loops are held by their polls and by the other connections' writers, from either carrier: some
     * writes are queued, the next ones inline; each peer reads every number in order. On one carrier and two.
     */
    @Test
    @Timeout(120)
    void writesKeepTheirOrderMixingInlineAndQueued() {
        Sockets.onOneAndTwoWorkers(5, s -> {
            int connections = 16, numbers = 2_000;
            try (TcpServer server = TcpServer.bind(anyPort())) {
                serveEach(s, server, c -> {
                    try (c) {
                        ByteBuffer one = ByteBuffer.allocate(4);
                        for (int i = 0; i < numbers; i++) {
                            one.clear();
                            one.putInt(i).flip();
                            c.write(one);
                            if (i % 64 == 0) {
                                Fiber.yield(); // resumes on either carrier
                            }
                        }
                    }
                });
                runClients(connections, k -> {
                    try (Socket socket = new Socket(server.address().getAddress(), server.address().getPort())) {
                        socket.setSoTimeout(30_000); // socket calls ignore the test's timeout
                        DataInputStream in = new DataInputStream(socket.getInputStream());
                        for (int i = 0; i < numbers; i++) {
                            assertEquals(i, in.readInt(), "the numbers in order");
                        }
                        assertEquals(-1, in.read(), "the end of the stream after the last number");
                    }
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }
}
