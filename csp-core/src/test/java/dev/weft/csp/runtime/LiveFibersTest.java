package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker's live list: removal from anywhere, a probe's detach and reattach, a run of removals under one lock. */
class LiveFibersTest {
    private final LiveFibers live = new LiveFibers();

    private static Set<Integer> labelsOf(LiveFibers list) {
        List<Schedulable> all = new ArrayList<>();
        list.snapshot(all);
        Set<Integer> labels = new HashSet<>();
        for (Schedulable c : all) {
            assertTrue(labels.add(((Labelled) c).label), "listed twice: " + c);
        }
        return labels;
    }

    private List<Labelled> addAll(int n) {
        List<Labelled> added = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Labelled c = new Labelled(i);
            live.add(c);
            added.add(c);
        }
        return added;
    }

    @Test
    void fibersAreRemovedFromTheHeadTheMiddleAndTheTail() {
        List<Labelled> f = addAll(5); // the list is newest first: 4 is its head, 0 its tail
        assertEquals(5, live.count());
        live.remove(f.get(4));
        live.remove(f.get(2));
        live.remove(f.get(0));
        assertEquals(2, live.count());
        assertEquals(Set.of(1, 3), labelsOf(live));
        for (Labelled c : List.of(f.get(4), f.get(2), f.get(0))) {
            assertNull(c.liveNext, "a removed fiber keeps no link");
            assertNull(c.livePrev);
        }
        live.remove(f.get(3));
        live.remove(f.get(1));
        assertEquals(0, live.count());
        assertEquals(Set.of(), labelsOf(live));
        live.add(f.get(2)); // an empty list takes fibers again
        assertEquals(Set.of(2), labelsOf(live));
    }

    @Test
    void aProbeDetachesFibersWhoStayCountedAndReattachesThem() {
        addAll(6);
        Schedulable taken = live.detachIf(c -> ((Labelled) c).label % 2 == 0);
        Set<Integer> detached = new HashSet<>();
        for (Schedulable c = taken; c != null; ) {
            Schedulable next = c.liveNext;
            detached.add(((Labelled) c).label);
            live.reattach(c);
            if (detached.size() == 1) {
                assertEquals(Set.of(1, 3, 5, ((Labelled) c).label), labelsOf(live));
            }
            c = next;
        }
        assertEquals(Set.of(0, 2, 4), detached);
        assertEquals(6, live.count(), "detached fibers still live");
        assertEquals(Set.of(0, 1, 2, 3, 4, 5), labelsOf(live));
        assertNull(live.detachIf(c -> false), "nothing accepted, nothing taken");
    }

    /**
     * Fibers of two homes that ended on one worker are chained through {@code next}: a run of one home's leaves
     * under one lock, and the removal stops at the first fiber of the other home, which it returns.
     */
    @Test
    @Timeout(30)
    void aRunOfEndedFibersLeavesUpToTheFirstOfAnotherHome() {
        WorkerPool pool = new WorkerPool(2, "live-test", (name, t) -> { });
        try {
            Worker a = pool.workers()[0];
            Worker b = pool.workers()[1];
            Labelled[] f = new Labelled[5];
            for (int i = 0; i < f.length; i++) {
                f[i] = new Labelled(100 + i);
                f[i].home = i < 3 ? a : b;
                f[i].home.live.add(f[i]);
            }
            int aBefore = a.live.count();
            int bBefore = b.live.count();
            for (int i = 0; i < f.length - 1; i++) {
                f[i].next = f[i + 1];
            }
            Schedulable rest = a.live.removeRun(f[0]);
            assertSame(f[3], rest, "the first fiber of the other home");
            assertEquals(aBefore - 3, a.live.count());
            assertTrue(labelsOf(a.live).stream().noneMatch(l -> l >= 100 && l < 103));
            for (int i = 0; i < 3; i++) {
                assertNull(f[i].next, "the links followed are cleared");
            }
            assertNull(b.live.removeRun(rest), "the end of the chain");
            assertEquals(bBefore - 2, b.live.count());
        } finally {
            pool.close();
        }
    }

    /** Adds and removals from two threads at once, as a home worker and a thief do: nothing lost, counts exact. */
    @Test
    @Timeout(60)
    void twoThreadsAddingAndRemovingKeepTheListExact() throws Exception {
        for (int round = 0; round < 100; round++) {
            LiveFibers list = new LiveFibers();
            int n = 2_000;
            List<Labelled> kept = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            Thread other = new Thread(() -> churn(list, go, n, 1_000_000));
            other.start();
            go.countDown();
            churn(list, go, n, 0);
            other.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!other.isAlive(), "the other thread did not finish");
            Set<Integer> expected = new HashSet<>();
            for (int i = 0; i < n; i += 2) {
                expected.add(i);
                expected.add(1_000_000 + i);
            }
            assertEquals(expected, labelsOf(list));
            assertEquals(expected.size(), list.count());
        }
    }

    /** Adds {@code n} fibers labelled from {@code base}, removing every odd one right after adding the next. */
    private static void churn(LiveFibers list, CountDownLatch go, int n, int base) {
        try {
            go.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        Labelled previous = null;
        for (int i = 0; i < n; i++) {
            Labelled c = new Labelled(base + i);
            list.add(c);
            if (previous != null && (i & 1) == 0) {
                list.remove(previous);
            }
            previous = c;
        }
        list.remove(previous); // n is even: the last one is odd
    }
}
