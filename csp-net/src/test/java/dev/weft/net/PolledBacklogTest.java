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
 * byte each at once, round after round, and each fiber echoes its byte.
 */
class PolledBacklogTest {
    /** Well above the backlog that is shared (Worker.SHARE_POLLED, 32). */
    private static final int CONNECTIONS = 128;

    /** Two carriers: rounds until a shared backlog was stolen; each echo checked. */
    @Test
    @Timeout(120)
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
    @Timeout(120)
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

        Peer(Scheduler s) throws IOException {
            listener = new ServerSocket(0, CONNECTIONS, InetAddress.getLoopbackAddress());
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            Weft.spawn(s, Sockets.io(() -> {
                for (int i = 0; i < CONNECTIONS; i++) {
                    TcpConnection c = TcpConnection.connect(at); // on this fiber's carrier's loop, as every other
                    Weft.spawn(Sockets.io(() -> echo(c)));
                }
            }));
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket socket = listener.accept();
                socket.setTcpNoDelay(true);
                sockets.add(socket);
            }
            awaitPausedIn(s, "dev.weft.net.TcpConnection.read", CONNECTIONS);
        }

        /** A byte to every connection at once, then each one's echo. */
        void round(int r) throws IOException {
            byte b = (byte) r;
            for (Socket socket : sockets) {
                OutputStream out = socket.getOutputStream();
                out.write(b);
            }
            for (Socket socket : sockets) {
                InputStream in = socket.getInputStream();
                int echoed = in.read();
                assertTrue(echoed >= 0, "a connection ended in round " + r);
                assertEquals(b, (byte) echoed, "round " + r);
            }
        }

        @Override
        public void close() throws IOException {
            for (Socket socket : sockets) {
                socket.close();
            }
            listener.close();
        }
    }

    @Pausable
    private static void echo(TcpConnection c) throws IOException {
        try (c) {
            ByteBuffer buf = ByteBuffer.allocate(16);
            while (c.read(buf) >= 0) {
                buf.flip();
                c.write(buf);
                buf.clear();
            }
        } catch (IOException e) {
            // the peer closed as the test ended
        }
    }
}
