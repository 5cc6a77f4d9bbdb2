package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.NodeTransport;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * What a synchronous ping-pong of net channels puts on the wire between two nodes on one carrier each (as two
 * processes would be): per round trip, one flush each way, which carries the value and the acknowledgement of
 * the value that came the other way. A reader answers when its read takes the value, and the answer waits in
 * the link's queue until its carrier next polls: by then the reader has written its reply, so both leave in one
 * write and wake the peer once. An acknowledgement flushed on its own would double the flushes, and the peer's
 * wake-ups.
 */
@Timeout(60)
class RoundTripFramesTest {
    private static final int WARM_UP = 50;
    private static final int ROUND_TRIPS = 500;

    @RepeatedTest(3)
    void eachRoundTripIsOneFlushEachWayCarryingTheValueAndTheAcknowledgement() throws Exception {
        try (Scheduler client = Scheduler.create(1); Scheduler server = Scheduler.create(1)) {
            Node a = Node.builder().scheduler(client).start();
            Node b = Node.builder().scheduler(server).start();
            try {
                NetChannelInput<Integer> pings = b.net2one();
                NetChannelInput<Integer> pongs = a.net2one();
                NetChannelOutput<Integer> ping = a.one2net(pings.location());
                NetChannelOutput<Integer> pong = b.one2net(pongs.location());
                AtomicReference<Throwable> echoFailed = new AtomicReference<>();
                Thread echo = new Thread(() -> {
                    try {
                        Weft.run(server, () -> {
                            for (int i = 0; i < WARM_UP + ROUND_TRIPS; i++) {
                                pong.write(pings.read());
                            }
                        });
                    } catch (Throwable t) {
                        echoFailed.set(t);
                    }
                }, "echo");
                echo.start();
                long[] before = new long[4];
                long[] after = new long[4];
                Weft.run(client, () -> {
                    for (int i = 0; i < WARM_UP + ROUND_TRIPS; i++) {
                        if (i == WARM_UP) {
                            count(a, b, before); // the peer waits for our next value: both sides are still
                        }
                        ping.write(i);
                        assertEquals(i, pongs.read());
                    }
                    count(a, b, after);
                });
                echo.join(30_000);
                assertTrue(echoFailed.get() == null, () -> "the echo failed: " + echoFailed.get());
                assertEquals(ROUND_TRIPS, after[0] - before[0], "flushes from the client");
                assertEquals(2 * ROUND_TRIPS, after[1] - before[1], "frames from the client: a value and an acknowledgement each");
                assertEquals(ROUND_TRIPS, after[2] - before[2], "flushes from the server");
                assertEquals(2 * ROUND_TRIPS, after[3] - before[3], "frames from the server: a value and an acknowledgement each");
            } finally {
                a.close();
                b.close();
            }
        }
    }

    /** Flushes and frames written on the link from {@code a} to {@code b}, then on the one from {@code b} to {@code a}. */
    private static void count(Node a, Node b, long[] into) {
        PeerLink ab = (PeerLink) NodeTransport.of(a).link(b.address());
        PeerLink ba = (PeerLink) NodeTransport.of(b).link(a.address());
        into[0] = ab.flushes();
        into[1] = ab.framesWritten();
        into[2] = ba.flushes();
        into[3] = ba.framesWritten();
    }
}
