package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.NodeTransport;
import dev.weft.net.poll.CarrierLoop;
import dev.weft.net.poll.CarrierLoops;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * What a synchronous ping-pong of net channels puts on the wire between two nodes on one carrier each (as two
 * processes would be): per round trip, one flush each way, which carries the value and the acknowledgement of
 * the value that came the other way. A reader answers when its read takes the value, and the answer waits in
 * the link's queue until its carrier next polls: by then the reader has written its reply, so both leave in one
 * write and wake the peer once. An acknowledgement flushed on its own would double the flushes, and the peer's
 * wake-ups. And each carrier, waiting for that one write, polls its sockets once per round trip: it blocks in
 * {@code epoll_wait} at once, making no poll without blocking before it (the reply takes longer than a spin
 * could afford to wait for).
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
                long[] before = new long[8];
                long[] after = new long[8];
                Weft.run(client, () -> {
                    for (int i = 0; i < WARM_UP + ROUND_TRIPS; i++) {
                        if (i == WARM_UP) {
                            count(a, b, client, server, before); // the peer waits for our next value: both sides are still
                        }
                        ping.write(i);
                        assertEquals(i, pongs.read());
                    }
                    count(a, b, client, server, after);
                });
                echo.join(30_000);
                assertTrue(echoFailed.get() == null, () -> "the echo failed: " + echoFailed.get());
                assertEquals(ROUND_TRIPS, after[0] - before[0], "flushes from the client");
                assertEquals(2 * ROUND_TRIPS, after[1] - before[1], "frames from the client: a value and an acknowledgement each");
                assertEquals(ROUND_TRIPS, after[2] - before[2], "flushes from the server");
                assertEquals(2 * ROUND_TRIPS, after[3] - before[3], "frames from the server: a value and an acknowledgement each");
                // One blocking poll per round trip each, and a few more: a timer (a heartbeat's) may end a wait
                // early. Polling without blocking for 25 us before each blocking poll (backing off to one wait in
                // 64 while it found nothing) made 26 to 37 more per 500 round trips, all without blocking.
                for (int side = 0; side < 2; side++) {
                    String whose = side == 0 ? "the client's" : "the server's";
                    long polls = after[4 + 2 * side] - before[4 + 2 * side];
                    long withoutBlocking = after[5 + 2 * side] - before[5 + 2 * side];
                    assertTrue(polls <= ROUND_TRIPS + ROUND_TRIPS / 50,
                            whose + " carrier polled " + polls + " times in " + ROUND_TRIPS + " round trips");
                    assertTrue(withoutBlocking <= ROUND_TRIPS / 100, whose + " carrier polled " + withoutBlocking
                            + " times without blocking in " + ROUND_TRIPS + " round trips");
                }
            } finally {
                a.close();
                b.close();
            }
        }
    }

    /**
     * Flushes and frames written on the link from {@code a} to {@code b}, then on the one from {@code b} to
     * {@code a}; then the polls, and polls without blocking, of the carrier of {@code a}, then of {@code b}.
     */
    private static void count(Node a, Node b, Scheduler client, Scheduler server, long[] into) {
        PeerLink ab = (PeerLink) NodeTransport.of(a).link(b.address());
        PeerLink ba = (PeerLink) NodeTransport.of(b).link(a.address());
        into[0] = ab.flushes();
        into[1] = ab.framesWritten();
        into[2] = ba.flushes();
        into[3] = ba.framesWritten();
        CarrierLoop clientLoop = CarrierLoops.of(client).loop(0);
        CarrierLoop serverLoop = CarrierLoops.of(server).loop(0);
        into[4] = clientLoop.polls();
        into[5] = clientLoop.pollsWithoutBlocking();
        into[6] = serverLoop.polls();
        into[7] = serverLoop.pollsWithoutBlocking();
    }
}
