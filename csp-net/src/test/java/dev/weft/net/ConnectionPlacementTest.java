package dev.weft.net;

import static dev.weft.net.Sockets.anyPort;
import static dev.weft.net.Sockets.io;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.poll.CarrierLoop;
import dev.weft.net.poll.CarrierLoops;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server's connections are dealt evenly to its scheduler's carriers, whichever carrier uses them first: a
 * connection stays on its carrier's loop for good, so one carrier holding most of them would keep their clients
 * waiting for its long turns while the others idle.
 */
class ConnectionPlacementTest {
    /**
     * One fiber accepts every connection and reads its first byte itself (the first use, which places the
     * connection), all from one carrier at a time: each carrier's loop still gets the same number of connections.
     * Placed on the carrier of their first use, all of them went to the acceptor's carriers.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    @Timeout(60)
    void aServerDealsTheConnectionsItAcceptsEvenlyToTheCarriers(int carriers) throws Exception {
        int perCarrier = 8, connections = carriers * perCarrier;
        Map<String, Integer> placed = new TreeMap<>();
        try (Scheduler s = Scheduler.create(carriers); TcpServer server = TcpServer.bind(anyPort())) {
            List<Thread> loops = new ArrayList<>();
            CarrierLoops all = CarrierLoops.of(s);
            for (int i = 0; i < carriers; i++) {
                loops.add(all.loop(i).carrier());
                placed.put(all.loop(i).carrier().getName(), 0);
            }
            Fiber acceptor = Weft.spawn(s, io(() -> {
                for (int i = 0; i < connections; i++) {
                    try (TcpConnection c = server.accept()) {
                        ByteBuffer first = ByteBuffer.allocate(1);
                        assertEquals(1, c.read(first));
                        CarrierLoop loop = (CarrierLoop) c.channel().eventLoop();
                        assertTrue(loops.contains(loop.carrier()), loop + " is not a loop of " + s);
                        synchronized (placed) {
                            placed.merge(loop.carrier().getName(), 1, Integer::sum);
                        }
                        first.flip();
                        c.write(first);
                    }
                }
            }));
            for (int i = 0; i < connections; i++) {
                try (Socket client = new Socket(server.address().getAddress(), server.address().getPort())) {
                    OutputStream out = client.getOutputStream();
                    InputStream in = client.getInputStream();
                    out.write(i);
                    assertEquals(i, in.read(), "the echo of connection " + i);
                }
            }
            acceptor.join();
        }
        for (Map.Entry<String, Integer> e : placed.entrySet()) {
            assertEquals(perCarrier, e.getValue(), "connections placed on " + e.getKey() + " of " + placed);
        }
    }
}
