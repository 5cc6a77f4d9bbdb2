package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Net barriers across three nodes: in-process nodes on loopback, and a node in a JVM of its own. */
@Timeout(60)
class NetBarrierTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static Node.Builder member(Node names) {
        return TestCarriers.builder().nameServer(names.address()).heartbeat(Duration.ofMillis(200), TIMEOUT);
    }

    @Test
    void noPartyOnAnyNodePassesARoundBeforeEveryPartyOnEveryNodeHasArrived() throws Exception {
        int rounds = 200;
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node a = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(member(a));
            Node c = nodes.start(member(a));
            List<NetBarrier> ends = List.of(a.netBarrier("rounds", 3, 2), b.connectBarrier("rounds", 1),
                    c.connectBarrier("rounds", 2));
            int[] partiesOf = {2, 1, 2};
            AtomicIntegerArray arrivals = new AtomicIntegerArray(rounds);
            List<CSProcess> parties = new ArrayList<>();
            for (int n = 0; n < ends.size(); n++) {
                NetBarrier end = ends.get(n);
                for (int p = 0; p < partiesOf[n]; p++) {
                    parties.add(() -> {
                        for (int r = 0; r < rounds; r++) {
                            arrivals.incrementAndGet(r);
                            end.sync();
                            if (arrivals.get(r) != 5) {
                                throw new AssertionError("round " + r + " passed with " + arrivals.get(r) + " of 5");
                            }
                        }
                    });
                }
            }
            Weft.run(s, () -> Parallel.run(parties.toArray(new CSProcess[0])));
            for (int r = 0; r < rounds; r++) {
                assertEquals(5, arrivals.get(r));
            }
        }
    }

    @Test
    void noRoundCompletesBeforeEveryNodeHasJoined() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(member(a));
            NetBarrier atA = a.netBarrier("late", 2, 1);
            Nodes.Party<Void> early = nodes.thread("early", () -> {
                atA.sync();
                return null;
            });
            early.awaitBlocked();
            assertFalse(early.isDone());
            NetBarrier atB = b.connectBarrier("late", 1);
            atB.sync();
            early.join();
            assertThrows(IllegalArgumentException.class, () -> a.netBarrier("none", 0, 1));
        }
    }

    @Test
    void aResignThatCompletesARoundReleasesItAndANodeWithNoPartiesHoldsNoRoundUp() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(member(a));
            Node c = nodes.start(member(a));
            NetBarrier atA = a.netBarrier("resign", 3, 2);
            NetBarrier atB = b.connectBarrier("resign", 1);
            NetBarrier atC = c.connectBarrier("resign", 0); // joins with no party: holds nothing up
            Nodes.Party<Void> a1 = nodes.thread("a1", () -> {
                atA.sync();
                return null;
            });
            Nodes.Party<Void> b1 = nodes.thread("b1", () -> {
                atB.sync();
                return null;
            });
            a1.awaitBlocked();
            b1.awaitBlocked();
            assertFalse(a1.isDone() || b1.isDone());
            atA.resign(); // the second party at A: A has all arrived, and the round goes
            a1.join();
            b1.join();

            atB.resign(); // B's last party: B stops counting
            atA.sync();   // A alone passes
            atA.sync();

            atC.enroll(); // C's first party: the next round waits for it
            Nodes.Party<Void> a2 = nodes.thread("a2", () -> {
                atA.sync();
                return null;
            });
            a2.awaitBlocked();
            assertFalse(a2.isDone());
            atC.sync();
            a2.join();
            assertThrows(IllegalStateException.class, atB::resign);
            assertThrows(IllegalStateException.class, atB::sync);
        }
    }

    @Test
    void aKilledNodePoisonsTheBarrierOnEveryNodeWithinTheHeartbeatTimeout() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().serveNames().heartbeat(Duration.ofMillis(200), TIMEOUT));
            Node b = nodes.start(member(a));
            NetBarrier atA = a.netBarrier("child.barrier", 3, 1);
            NetBarrier atB = b.connectBarrier("child.barrier", 1);
            Process child = ChildNode.start(a.address(), "barrier");
            try {
                for (int r = 0; r < 20; r++) { // rounds with the child JVM's party
                    Nodes.Party<Void> other = nodes.thread("b round " + r, () -> {
                        atB.sync();
                        return null;
                    });
                    atA.sync();
                    other.join();
                }
                Nodes.Party<Void> blockedA = nodes.thread("a", () -> {
                    atA.sync();
                    return null;
                });
                blockedA.awaitBlocked(); // waits for B's party, which does not come
                long killed = System.nanoTime();
                child.destroyForcibly();
                assertInstanceOf(PoisonException.class, blockedA.failure());
                long tookMs = (System.nanoTime() - killed) / 1_000_000;
                assertTrue(tookMs < TIMEOUT.toMillis() + 1000, "took " + tookMs + " ms");
                try { // B hears of it too
                    atB.sync();
                    fail("a poisoned barrier let a party through");
                } catch (PoisonException expected) {
                    assertTrue(expected.getMessage().contains("child.barrier") || expected instanceof LinkLostException,
                            expected.getMessage());
                }
            } finally {
                child.destroyForcibly();
            }
        }
    }
}
