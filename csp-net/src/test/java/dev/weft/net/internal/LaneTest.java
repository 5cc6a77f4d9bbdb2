package dev.weft.net.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import dev.weft.net.codec.KryoCodec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lane's answer that came just before its output failed: a server's last reply, then its node's goodbye (the
 * end of a program). The client returns the reply whether the two come before it looks, while it looks (between
 * finding no reply and waiting for the doorbell, which the failure poisons, dropping the reply's ring), or while
 * it waits; the failure counts only for a transaction left unanswered.
 */
@Timeout(120)
class LaneTest {
    private static final int ROUNDS = 40_000;
    /**
     * Rounds hand over by {@link Thread#yield} loops, which on a machine whose cores are all busy can take a whole
     * scheduler slice each (two busy processes beside this test made rounds 2 ms instead of 30 us): the rounds
     * stop at this budget, so the test stays a test of the lane, not of the machine's load.
     */
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(20);
    /** How far the reply is put off once the client starts to look: up to about as long as its look takes. */
    private static final int SPREAD = 16;

    @Test
    void aReplyThatCameBeforeTheOutputFailedIsReturnedToAThread() throws Exception {
        Rounds rounds = new Rounds();
        Thread client = new Thread(rounds::client, "client");
        client.setDaemon(true);
        client.start();
        rounds.serve();
        client.join();
    }

    @Test
    void toAFiberOnOneWorker() throws Exception {
        onFibers(1);
    }

    @Test
    void toAFiberOnTwoWorkers() throws Exception {
        onFibers(2);
    }

    private static void onFibers(int workers) throws Exception {
        Rounds rounds = new Rounds();
        try (Scheduler s = Scheduler.create(workers)) {
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> Weft.run(s, rounds::client));
            rounds.serve();
            client.get(60, TimeUnit.SECONDS);
        }
    }

    /** The two sides of {@link #ROUNDS} transactions, each on a lane of its own. */
    private static final class Rounds {
        private final Endpoints endpoints = new Endpoints(new KryoCodec(), false, null);
        private final NetChannelLocation at = new NetChannelLocation(new NodeAddress("127.0.0.1", 1), 1);
        private final AtomicReference<Lane> next = new AtomicReference<>();
        private final AtomicReference<Object> outcome = new AtomicReference<>();
        private final AtomicBoolean looking = new AtomicBoolean();
        private volatile boolean over;

        /** Waits for each round's reply (what it returned, or the failure it threw) until the server is over. */
        @Pausable
        void client() {
            while (true) {
                Lane lane;
                while ((lane = next.getAndSet(null)) == null) {
                    if (over) {
                        return;
                    }
                    Thread.yield(); // not a spin: on a loaded machine the other side needs the core
                }
                looking.set(true); // the server acts from now on, so that it often lands inside the look
                Object got;
                try {
                    got = lane.awaitReply();
                } catch (RuntimeException e) {
                    got = e;
                }
                outcome.set(got);
            }
        }

        /** Each round: a reply, then the output's failure; checks that every client got its reply. */
        void serve() {
            int missed = 0;
            Object first = null;
            long deadline = System.nanoTime() + BUDGET_NANOS;
            int r = 0;
            for (; r < ROUNDS && System.nanoTime() - deadline < 0; r++) {
                NetOutput<String> out = new NetOutput<>(endpoints, at);
                Lane lane = new Lane(r, out);
                next.set(lane);
                while (!looking.getAndSet(false)) {
                    Thread.yield();
                }
                for (int spin = r % SPREAD; spin > 0; spin--) { // before, while or after the client looks
                    Thread.onSpinWait();
                }
                lane.replied("reply " + r);
                out.fail(new LinkLostException("the server's node closed"));
                lane.failed(); // as the output does to the lanes it made
                Object got;
                while ((got = outcome.getAndSet(null)) == null) {
                    Thread.yield();
                }
                if (!("reply " + r).equals(got)) {
                    missed++;
                    first = first == null ? got : first;
                }
            }
            over = true;
            assertEquals(0, missed, missed + " of " + r + " clients lost the reply that came first; the first got: " + first);
        }
    }
}
