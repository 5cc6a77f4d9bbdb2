package dev.weft.csp.runtime;

import static dev.weft.csp.runtime.Labelled.labels;
import static dev.weft.csp.runtime.Labelled.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A worker's active batch: FIFO order, the moves between batches, and an owner and a thief on it at once. */
class RunQueueTest {
    private static RunQueue queueOf(boolean shared, int n) {
        RunQueue q = new RunQueue(shared);
        for (int i = 0; i < n; i++) {
            q.add(new Labelled(i));
        }
        return q;
    }

    private static List<Integer> drainLabels(RunQueue q) {
        List<Integer> out = new ArrayList<>();
        for (Schedulable c; (c = q.poll()) != null; ) {
            assertNull(c.next, "a polled fiber keeps no link into the queue");
            out.add(((Labelled) c).label);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void fibersLeaveInTheOrderTheyCame(boolean shared) {
        RunQueue q = queueOf(shared, 5);
        assertEquals(5, q.size());
        assertEquals(0, ((Labelled) q.first()).label);
        assertEquals(range(0, 5), drainLabels(q));
        assertTrue(q.isEmpty());
        assertNull(q.poll(), "empty: nothing to poll");
        q.add(new Labelled(7)); // usable again once emptied (its tail was reset)
        assertEquals(List.of(7), drainLabels(q));
    }

    @Test
    void aSimulationTakesFromAnyPlace() {
        RunQueue q = queueOf(false, 4);
        assertEquals(2, ((Labelled) q.take(2)).label);
        assertEquals(3, ((Labelled) q.take(2)).label, "the last one: the tail moves back");
        q.add(new Labelled(9));
        assertEquals(0, ((Labelled) q.take(0)).label);
        assertEquals(List.of(1, 9), drainLabels(q));
    }

    @Test
    void theInboxJoinsAtTheEndOldestFirst() {
        RunQueue q = queueOf(true, 2);
        Inbox inbox = new Inbox();
        assertFalse(q.drain(inbox), "an empty inbox adds nothing");
        for (int i = 2; i < 6; i++) {
            inbox.push(new Labelled(i));
        }
        assertTrue(q.drain(inbox));
        assertTrue(inbox.isEmpty());
        assertEquals(range(0, 6), drainLabels(q));
    }

    /** The halves of sizes 0 to 5: the older half is at least one fiber, and nothing is lost or reordered. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5})
    void halvesSplitWithoutLossOrReordering(int n) {
        RunQueue q = queueOf(true, n);
        Batch older = new Batch();
        older.add(new Labelled(-1)); // moves append behind what a batch holds
        q.moveFirstHalfTo(older);
        int moved = (n + 1) / 2;
        List<Integer> expectOlder = new ArrayList<>(List.of(-1));
        expectOlder.addAll(range(0, moved));
        assertEquals(expectOlder, labels(older));
        assertEquals(1 + moved, older.size());
        assertEquals(n - moved, q.size());

        RunQueue r = queueOf(true, n);
        Batch newer = new Batch();
        r.moveSecondHalfTo(newer);
        int kept = (n + 1) / 2;
        assertEquals(range(kept, n), labels(newer));
        assertEquals(n - kept, newer.size());
        assertEquals(range(0, kept), drainLabels(r));
        newer.add(new Labelled(n)); // the newer half's tail is its last fiber
        assertEquals(range(kept, n + 1), labels(newer));
    }

    @Test
    void wholeBatchesMoveInAndOut() {
        RunQueue q = queueOf(true, 3);
        Batch b = new Batch();
        q.moveAllTo(b);
        assertTrue(q.isEmpty());
        assertEquals(range(0, 3), labels(b));
        q.add(new Labelled(10));
        q.takeAll(b);
        assertTrue(b.isEmpty());
        assertEquals(0, b.size());
        assertEquals(List.of(10, 0, 1, 2), drainLabels(q));
    }

    /**
     * The owner adds and polls while a thief keeps taking the older half, as an idle worker does from a stuck
     * slice: every fiber comes out exactly once, and each side gets its fibers in the order they were added.
     * Up to 100 rounds, as many as fit in 10 seconds (a loaded machine runs fewer).
     */
    @Test
    @Timeout(120)
    void anOwnerAndAThiefTakeEveryFiberOnceInOrder() throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int round = 0; round < 100 && (round < 3 || System.nanoTime() - end < 0); round++) {
            int n = 1_000;
            RunQueue q = new RunQueue(true);
            List<Integer> owner = new ArrayList<>();
            List<Integer> thief = new ArrayList<>();
            CountDownLatch ownerDone = new CountDownLatch(1);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    Batch b = new Batch();
                    while (ownerDone.getCount() > 0 || !q.isEmpty()) {
                        q.moveFirstHalfTo(b);
                        for (Schedulable c; (c = b.poll()) != null; ) {
                            thief.add(((Labelled) c).label);
                        }
                        Thread.onSpinWait();
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "thief");
            t.start();
            for (int i = 0; i < n; i++) {
                q.add(new Labelled(i));
                if ((i & 3) == 3) {
                    Schedulable c = q.poll();
                    if (c != null) {
                        owner.add(((Labelled) c).label);
                    }
                }
            }
            ownerDone.countDown();
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive(), "the thief did not finish");
            assertNull(failed.get());
            assertIncreasing(owner);
            assertIncreasing(thief);
            List<Integer> all = new ArrayList<>(owner);
            all.addAll(thief);
            all.sort(null);
            assertEquals(range(0, n), all, "every fiber exactly once");
        }
    }

    private static void assertIncreasing(List<Integer> labels) {
        for (int i = 1; i < labels.size(); i++) {
            assertTrue(labels.get(i - 1) < labels.get(i), "out of order at " + i + ": " + labels);
        }
    }
}
