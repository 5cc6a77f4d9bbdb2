package dev.weft.csp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wait queue as a ring known by its last waiter: arrival order through adds, polls and removals at every
 * place, and every link cleared as a waiter leaves (a fiber's link is also its run-queue link).
 */
class WaitQueueTest {
    /** A queue whose last waiter lives in the test, as a channel keeps its ends' last waiters. */
    private static final class Queue extends WaitQueue {
        private Object last;

        @Override
        Object last() {
            return last;
        }

        @Override
        void last(Object waiter) {
            last = waiter;
        }
    }

    private static Fiber fiber() {
        return ApiAccess.api().newFiber(() -> { }, null);
    }

    private static Selection.Registration registration(int index) {
        return new Selection.Registration(null, index);
    }

    private static List<Object> pollAll(WaitQueue q) {
        List<Object> out = new ArrayList<>();
        for (Object w; (w = q.poll()) != null; ) {
            out.add(w);
        }
        return out;
    }

    private static Object link(Object waiter) {
        return waiter instanceof Fiber ? ((Fiber) waiter).nextWaiter() : ((Selection.Registration) waiter).nextWaiter;
    }

    @Test
    void pollsInArrivalOrderAndClearsEachLink() {
        Queue q = new Queue();
        assertTrue(q.isEmpty());
        assertNull(q.peek());
        assertNull(q.poll());
        Fiber a = fiber();
        Selection.Registration b = registration(1);
        Fiber c = fiber();
        q.add(a);
        assertSame(a, q.peek());
        q.add(b);
        q.add(c);
        assertSame(a, q.peek());
        assertEquals(Arrays.asList(a, b, c), pollAll(q));
        assertTrue(q.isEmpty());
        for (Object w : new Object[] {a, b, c}) {
            assertNull(link(w));
        }
    }

    @Test
    void removesTheFirstAMiddleTheLastAndTheOnlyWaiter() {
        Fiber a = fiber();
        Fiber b = fiber();
        Fiber c = fiber();
        Fiber d = fiber();

        Queue q = new Queue();
        q.add(a);
        q.add(b);
        q.add(c);
        assertTrue(q.remove(b));
        assertNull(b.nextWaiter());
        assertFalse(q.remove(b));
        assertTrue(q.remove(c)); // the last: the one before it becomes last
        q.add(d);
        assertEquals(Arrays.asList(a, d), pollAll(q));

        q.add(a);
        q.add(b);
        assertTrue(q.remove(a));
        q.add(c);
        assertEquals(Arrays.asList(b, c), pollAll(q));

        q.add(a);
        assertFalse(q.remove(b));
        assertTrue(q.remove(a));
        assertTrue(q.isEmpty());
        assertNull(a.nextWaiter());
        q.add(c);
        assertEquals(Arrays.asList(c), pollAll(q));
    }

    @Test
    void drainingHandsOverAChainThatEnds() {
        Queue q = new Queue();
        assertNull(q.drain());
        Fiber a = fiber();
        Selection.Registration b = registration(0);
        Fiber c = fiber();
        q.add(a);
        q.add(b);
        q.add(c);
        List<Object> chain = new ArrayList<>();
        for (Object w = q.drain(), n; w != null; w = n) {
            n = WaitQueue.detach(w);
            chain.add(w);
            assertNull(link(w));
        }
        assertEquals(Arrays.asList(a, b, c), chain);
        assertTrue(q.isEmpty());
    }

    @Test
    void drainingSelectionsKeepsTheFibersInOrder() {
        Queue q = new Queue();
        Selection.Registration r1 = registration(1);
        Fiber a = fiber();
        Selection.Registration r2 = registration(2);
        Fiber b = fiber();
        Selection.Registration r3 = registration(3);
        for (Object w : new Object[] {r1, a, r2, b, r3}) {
            q.add(w);
        }
        assertTrue(q.hasFiberOtherThan(a));
        List<Object> taken = new ArrayList<>();
        for (Object w = q.drainSelections(), n; w != null; w = n) {
            n = WaitQueue.detach(w);
            taken.add(w);
        }
        assertEquals(Arrays.asList(r1, r2, r3), taken);
        assertEquals(Arrays.asList(a, b), pollAll(q));

        q.add(r1);
        assertSame(r1, q.drainSelections());
        assertTrue(q.isEmpty());
    }

    @Test
    void findsAPlainWaiterOtherThanItself() {
        Queue q = new Queue();
        Fiber a = fiber();
        Fiber b = fiber();
        assertFalse(q.hasFiberOtherThan(a));
        q.add(registration(0));
        q.add(a);
        assertFalse(q.hasFiberOtherThan(a));
        q.add(b);
        assertTrue(q.hasFiberOtherThan(a));
        assertTrue(q.hasFiberOtherThan(b));
    }
}
