package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker's timers: deadline order with arrival breaking ties, growth, removal from anywhere, fire or cancel. */
class TimerHeapTest {
    /** No pool: the deadlines are the test's numbers (the pool only tells dumps the time). */
    private final TimerHeap heap = new TimerHeap(null);

    /** Records the order in which entries fire. */
    private final List<Integer> fired = new ArrayList<>();

    private TimerEntry add(long deadline, int label) {
        return heap.add(deadline, () -> fired.add(label));
    }

    private List<Integer> fireDue(long now) {
        fired.clear();
        TimerHeap.fire(heap.takeDue(now, false));
        return new ArrayList<>(fired);
    }

    @Test
    void anEmptyHeapHasNothingDue() {
        assertTrue(heap.isEmpty());
        assertNull(heap.first());
        assertFalse(heap.hasDue(Long.MAX_VALUE));
        assertNull(heap.takeDue(0, false));
        assertNull(heap.takeDue(0, true));
    }

    @Test
    void entriesFallDueInDeadlineOrderThenArrivalOrderAsTheHeapGrows() {
        Random r = new Random(42);
        List<long[]> added = new ArrayList<>(); // deadline, label
        for (int i = 0; i < 1_000; i++) { // the heap starts with room for 8: it grows several times
            long d = r.nextInt(100); // many equal deadlines: ties go by arrival
            add(d, i);
            added.add(new long[] {d, i});
        }
        assertEquals(1_000, heap.size());
        assertEquals(added.stream().mapToLong(a -> a[0]).min().getAsLong(), heap.first().deadline());
        added.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        List<Integer> expected = new ArrayList<>();
        for (long[] a : added) {
            expected.add((int) a[1]);
        }
        assertFalse(heap.hasDue(-1));
        List<Integer> order = new ArrayList<>(fireDue(49));
        assertTrue(heap.hasDue(99));
        order.addAll(fireDue(99));
        assertEquals(expected, order);
        assertTrue(heap.isEmpty());
        assertEquals(0, heap.size());
    }

    @Test
    void onlyWhatIsDueIsTaken() {
        add(10, 1);
        add(30, 3);
        add(20, 2);
        assertEquals(List.of(), fireDue(9));
        assertEquals(List.of(1, 2), fireDue(20));
        assertEquals(30, heap.first().deadline());
        assertEquals(List.of(3), fireDue(1_000));
    }

    /** Deadlines are compared as differences, as System.nanoTime() values must be: order survives the wrap. */
    @Test
    void orderSurvivesTheClocksWrapAround() {
        long near = Long.MAX_VALUE - 5;
        add(near + 10, 2); // wraps to a negative number, yet falls due after near + 5
        add(near + 5, 1);
        add(near, 0);
        assertEquals(List.of(0), fireDue(near));
        assertEquals(List.of(1, 2), fireDue(near + 20));
    }

    @Test
    void aCancelledEntryLeavesAtOnceFromWhereverItIs() {
        Random r = new Random(7);
        List<TimerEntry> entries = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            entries.add(add(r.nextInt(1_000), i));
        }
        List<TimerEntry> kept = new ArrayList<>(entries);
        Collections.shuffle(kept, r);
        List<TimerEntry> cancelled = kept.subList(0, 120); // the first, the last, the middle: wherever they are
        for (TimerEntry e : cancelled) {
            assertTrue(e.cancel());
            assertFalse(e.cancel(), "a second cancel finds it cancelled");
        }
        assertEquals(80, heap.size());
        heap.remove(cancelled.get(0)); // removing one that left already changes nothing
        assertEquals(80, heap.size());
        List<Integer> expected = new ArrayList<>();
        entries.stream().filter(e -> !cancelled.contains(e))
                .sorted(Comparator.comparingLong(TimerEntry::deadline).thenComparingLong(e -> e.seq))
                .forEach(e -> expected.add(entries.indexOf(e)));
        assertEquals(expected, fireDue(1_000));
    }

    @Test
    void removingTheLastOrTheOnlyEntryLeavesTheHeapConsistent() {
        TimerEntry only = add(5, 0);
        assertTrue(only.cancel());
        assertTrue(heap.isEmpty());
        assertNull(heap.first());
        add(1, 1);
        TimerEntry last = add(9, 9);
        assertTrue(last.cancel());
        assertEquals(1, heap.first().deadline());
        assertEquals(List.of(1), fireDue(100));
    }

    @Test
    void anEntryFiresOnceAndCannotBeCancelledAfterwards() {
        TimerEntry e = add(1, 1);
        assertEquals(List.of(1), fireDue(1));
        assertFalse(e.cancel(), "it fired");
        e.fire(); // a second fire (an idle worker and the owner both took it) runs nothing
        assertEquals(List.of(1), fired);
    }

    /** Firing (an idle worker that took the entry) and cancelling (the fiber's select ending) race: one wins. */
    @Test
    @Timeout(60)
    void fireAndCancelRacingRunTheActionExactlyWhenCancelLoses() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            AtomicInteger ran = new AtomicInteger();
            TimerEntry e = heap.add(0, ran::incrementAndGet);
            TimerEntry chain = heap.takeDue(0, false);
            assertTrue(e == chain, "the one entry is due");
            CountDownLatch go = new CountDownLatch(1);
            boolean[] cancelled = new boolean[1];
            Thread canceller = new Thread(() -> {
                awaitQuietly(go);
                cancelled[0] = e.cancel();
            });
            canceller.start();
            go.countDown();
            TimerHeap.fire(chain);
            canceller.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(canceller.isAlive());
            assertEquals(cancelled[0] ? 0 : 1, ran.get(), "cancel won: " + cancelled[0]);
            assertTrue(heap.isEmpty());
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
