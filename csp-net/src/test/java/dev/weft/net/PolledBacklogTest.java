package dev.weft.net;

import static dev.weft.net.Sockets.awaitPausedIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.runtime.WorkerPool;
import dev.weft.csp.spi.Extensions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A carrier whose poll wakes a backlog of fibers while another carrier idles shares the newer half with it
 * (published as a batch, which the idle carrier steals): the sockets stay where they live, every request is
 * answered once and in order. Many sockets, all dialled by one fiber (so all on its carrier's loop), are sent a
 * byte each, round after round, and each fiber echoes its byte. The first connection's fiber holds its carrier
 * in one slice while the others' bytes are sent, so that its next poll finds them all ready at once (unless the
 * other carrier polled aside for it meanwhile: that round then shares nothing, and the next one tries again).
 */
class PolledBacklogTest {
    /** Well above the backlog that is shared (Worker.SHARE_POLLED, 32). */
    private static final int CONNECTIONS = 128;

    /** Two carriers: rounds until a shared backlog was stolen; each echo checked. */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking socket reads ignore interrupts
    void anIdleCarrierTakesPartOfAnotherCarriersBacklogOfWokenFibers() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            WorkerPool pool = Extensions.pool(s);
            try (Peer peer = new Peer(s)) {
                long before = pool.steals(); // the readers' own start may have been stolen: counted from here
                int rounds = 0;
                while (pool.steals() == before) {
                    peer.round(rounds++);
                }
                peer.round(rounds); // the connections still answer, in order, after fibers ran elsewhere
            }
        }
    }

    /** One carrier: nothing to share with; every round answered. */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking socket reads ignore interrupts
    void oneCarrierServesTheBacklogAlone() throws Exception {
        try (Scheduler s = Scheduler.create(1); Peer peer = new Peer(s)) {
            for (int r = 0; r < 50; r++) {
                peer.round(r);
            }
            assertEquals(0, Extensions.pool(s).steals());
        }
    }

    /** The far ends, plain blocking sockets of the test's thread; the near ends, fibers dialled by one fiber. */
    private static final class Peer implements AutoCloseable {
        private final ServerSocket listener;
        private final List<Socket> sockets = new ArrayList<>();
        /** The round whose byte the first connection's fiber took (it then holds its carrier), and the last sent. */
        private volatile int holding = -1, sent = -1;
        private volatile boolean closing;

        Peer(Scheduler s) throws IOException {
            listener = new ServerSocket(0, CONNECTIONS, InetAddress.getLoopbackAddress());
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            Weft.spawn(s, Sockets.io(() -> {
                for (int i = 0; i < CONNECTIONS; i++) {
                    TcpConnection c = TcpConnection.connect(at); // on this fiber's carrier's loop, as every other
                    boolean first = i == 0;
                    Weft.spawn(Sockets.io(() -> echo(c, first)));
                }
            }));
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket socket = listener.accept(); // in the order dialled: the first is the first connection's
                socket.setTcpNoDelay(true);
                sockets.add(socket);
            }
            awaitPausedIn(s, "dev.weft.net.TcpConnection.read", CONNECTIONS);
        }

        /** A byte to the first connection; once its fiber holds its carrier, a byte to every other; each echo. */
        void round(int r) throws IOException {
            byte b = (byte) r;
            sockets.get(0).getOutputStream().write(b);
            Sockets.awaitTrue("the first connection's fiber holds its carrier", () -> holding == r);
            for (Socket socket : sockets.subList(1, CONNECTIONS)) {
                OutputStream out = socket.getOutputStream();
                out.write(b);
            }
            sent = r;
            for (Socket socket : sockets) {
                InputStream in = socket.getInputStream();
                int echoed = in.read();
                assertTrue(echoed >= 0, "a connection ended in round " + r);
                assertEquals(b, (byte) echoed, "round " + r);
            }
        }

        @Override
        public void close() throws IOException {
            closing = true; // the first connection's fiber lets its carrier go
            for (Socket socket : sockets) {
                socket.close();
            }
            listener.close();
        }

        /** Echoes each byte; the first connection's fiber first holds its carrier until the round's bytes are sent. */
        @Pausable
        private void echo(TcpConnection c, boolean first) throws IOException {
            try (c) {
                ByteBuffer buf = ByteBuffer.allocate(16);
                for (int round = 0; c.read(buf) >= 0; round++) {
                    if (first) {
                        holding = round;
                        while (sent < round && !closing) {
                            Thread.onSpinWait(); // one slice: its carrier neither polls nor runs another fiber
                        }
                    }
                    buf.flip();
                    c.write(buf);
                    buf.clear();
                }
            } catch (IOException e) {
                // the peer closed as the test ended
            }
        }
    }
}
