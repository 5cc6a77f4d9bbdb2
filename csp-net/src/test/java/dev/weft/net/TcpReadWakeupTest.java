package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reader that finds its socket already asked for bytes waits without taking the connection's lock (the common
 * case of a reader that keeps up). That is safe only if whatever comes next, bytes, the end of the stream, a
 * reset or a close from another thread, sets the connection's readiness before it signals the reader: else a
 * reader that looked just before would wait for good. These tests make the next thing come at every moment of
 * that look, many times, on one and two carriers.
 */
class TcpReadWakeupTest {
    /** Spins up to {@code micros} at random: the next byte comes before, during or after the reader's look. */
    private static void jitter(int micros) {
        long end = System.nanoTime() + ThreadLocalRandom.current().nextInt(micros * 1_000 + 1);
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest(name = "{0} carriers")
    @ValueSource(ints = {1, 2})
    @Timeout(120)
    void everyByteSentOneAtATimeWakesTheReaderAndSoDoesTheEnd(int carriers) throws Exception {
        int bytes = 3_000;
        for (int round = 0; round < 5; round++) {
            try (Scheduler s = Scheduler.create(carriers); TcpServer server = TcpServer.bind(anyPort())) {
                CompletableFuture<int[]> got = new CompletableFuture<>();
                Weft.spawn(s, () -> {
                    int[] seen = new int[bytes];
                    int n = 0;
                    try (TcpConnection c = server.accept()) {
                        ByteBuffer one = ByteBuffer.allocate(1);
                        while (c.read(one) >= 0) {
                            seen[n++] = one.get(0) & 0xff;
                            one.clear();
                        }
                        got.complete(Arrays.copyOf(seen, n));
                    } catch (IOException | RuntimeException e) {
                        got.completeExceptionally(e);
                    }
                });
                try (Socket peer = new Socket(server.address().getAddress(), server.address().getPort())) {
                    peer.setTcpNoDelay(true);
                    OutputStream out = peer.getOutputStream();
                    for (int i = 0; i < bytes; i++) {
                        out.write(i);
                        jitter(30);
                    }
                    peer.shutdownOutput(); // the end must wake a reader that waits on an asked socket too
                    int[] seen = got.get(60, TimeUnit.SECONDS);
                    assertEquals(bytes, seen.length, "round " + round + ": bytes read before the end");
                    for (int i = 0; i < bytes; i++) {
                        assertEquals(i & 0xff, seen[i], "round " + round + ": byte " + i);
                    }
                }
            }
        }
    }

    /** What ends a reader's wait after its first byte, and what the reader must see. */
    enum Ending { PEER_ENDS, PEER_RESETS, CLOSED_BY_ANOTHER_THREAD }

    @ParameterizedTest(name = "{0} carriers")
    @ValueSource(ints = {1, 2})
    @Timeout(180)
    void theEndAResetOrACloseWakesAReaderThatWaitsOnAnAskedSocket(int carriers) throws Exception {
        try (Scheduler s = Scheduler.create(carriers); TcpServer server = TcpServer.bind(anyPort())) {
            for (int i = 0; i < 300; i++) {
                Ending ending = Ending.values()[i % 3];
                AtomicReference<TcpConnection> accepted = new AtomicReference<>();
                CountDownLatch firstByte = new CountDownLatch(1);
                CompletableFuture<Object> outcome = new CompletableFuture<>();
                Weft.spawn(s, () -> {
                    try (TcpConnection c = server.accept()) {
                        accepted.set(c);
                        ByteBuffer buf = ByteBuffer.allocate(16);
                        int first = c.read(buf); // the socket stays asked: the next read waits lock-free
                        firstByte.countDown();
                        buf.clear();
                        int n = c.read(buf);
                        outcome.complete(first == 1 && n < 0 ? "the end" : "read " + first + " then " + n);
                    } catch (IOException | RuntimeException e) {
                        outcome.complete(e);
                    }
                });
                try (Socket peer = new Socket(server.address().getAddress(), server.address().getPort())) {
                    peer.setTcpNoDelay(true);
                    peer.getOutputStream().write(7);
                    assertTrue(firstByte.await(60, TimeUnit.SECONDS), "the first byte was read");
                    jitter(50);
                    switch (ending) {
                        case PEER_ENDS -> peer.shutdownOutput();
                        case PEER_RESETS -> {
                            peer.setSoLinger(true, 0);
                            peer.close();
                        }
                        case CLOSED_BY_ANOTHER_THREAD -> accepted.get().close();
                    }
                    Object got = outcome.get(60, TimeUnit.SECONDS);
                    switch (ending) {
                        case PEER_ENDS -> assertEquals("the end", got, "iteration " + i);
                        case PEER_RESETS -> assertInstanceOf(IOException.class, got, "iteration " + i);
                        case CLOSED_BY_ANOTHER_THREAD -> assertInstanceOf(ClosedChannelException.class, got,
                                "iteration " + i);
                    }
                }
            }
        }
    }
}
