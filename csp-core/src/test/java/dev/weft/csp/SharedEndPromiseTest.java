package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shared ends with a waiting select: the cases where a party queued behind a claimed select used to be served
 * as if the select were not there (a model checker's finding). Each is set up step by step on plain threads,
 * every step waiting for the one before to have happened, and a latch holds the select's owner back after its
 * choice, as a descheduled thread would be: the interleaving that broke order, close-and-drain and readiness.
 */
class SharedEndPromiseTest {
    private static final long BOUND_SECONDS = 20;

    /** A thread that runs {@code body}, keeping what it throws. */
    private static Thread start(String name, ThrowingRunnable body, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(BOUND_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("a step of the test did not happen within " + BOUND_SECONDS + " s");
        }
    }

    private static void join(Thread t, AtomicReference<Throwable> failure) throws Throwable {
        t.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
        if (t.isAlive()) {
            fail(t.getName() + " still blocked after " + BOUND_SECONDS + " s");
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /**
     * One writer's values in its order: reader A waits in a select, reader B behind it in a read; the writer
     * writes 1, 2, 3 into a buffer of one. B must never read 2 before 1.
     */
    @Test
    @Timeout(60)
    void aReaderQueuedBehindASelectReadsOneWritersValuesInOrder() throws Throwable {
        Any2AnyChannel<Integer> c = Channel.any2any(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch bDone = new CountDownLatch(1);
        List<Integer> a = Collections.synchronizedList(new ArrayList<>());
        List<Integer> b = Collections.synchronizedList(new ArrayList<>());
        Thread ta = start("A", () -> {
            assertEquals(0, new Alternative(c.in()).priSelect());
            await(bDone); // slow to follow its choice
            a.add(c.in().read());
        }, failure);
        Schedulers.awaitBlocked(ta);
        Thread tb = start("B", () -> {
            b.add(c.in().read());
            b.add(c.in().read());
            bDone.countDown();
        }, failure);
        Schedulers.awaitBlocked(tb);
        Thread w = start("W", () -> {
            for (int i = 1; i <= 3; i++) {
                c.out().write(i);
            }
        }, failure);
        join(w, failure);
        join(tb, failure);
        join(ta, failure);
        assertTrue(b.get(0) < b.get(1), "B read one writer's values out of order: " + b);
        List<Integer> all = new ArrayList<>(a);
        all.addAll(b);
        Collections.sort(all);
        assertEquals(List.of(1, 2, 3), all);
    }

    /**
     * Close-and-drain from the reader's side: A waits in a select, B in a read, a writer's {@code write(6)}
     * comes, then {@code close()}. 6 is read exactly once, and no reader reads anything after seeing the end.
     */
    @Test
    @Timeout(60)
    void aValueWrittenBeforeTheCloseIsReadBeforeTheEndWhenASelectWaits() throws Throwable {
        Any2AnyChannel<Integer> c = Channel.any2any();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch bDone = new CountDownLatch(1);
        List<Integer> read = Collections.synchronizedList(new ArrayList<>());
        Thread ta = start("A", () -> {
            new Alternative(c.in()).priSelect();
            await(bDone);
            readToTheEnd(c.in(), read);
        }, failure);
        Schedulers.awaitBlocked(ta);
        Thread tb = start("B", () -> {
            readToTheEnd(c.in(), read);
            bDone.countDown();
        }, failure);
        Schedulers.awaitBlocked(tb);
        Thread w = start("W", () -> c.out().write(6), failure);
        awaitDoneOrBlocked(w);
        c.out().close();
        join(w, failure);
        join(tb, failure);
        join(ta, failure);
        assertEquals(List.of(6), read);
    }

    /**
     * Close-and-drain from the writer's side: W1 waits in a select on the output, W2 in a write behind it, a
     * reader reads until the end while the channel is closed. Every write that returned was read before the end,
     * once; nothing is read after it.
     */
    @Test
    @Timeout(60)
    void aWriteQueuedBehindASelectIsReadBeforeTheEnd() throws Throwable {
        Any2AnyChannel<Integer> c = Channel.any2any();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch closed = new CountDownLatch(1);
        List<Integer> written = Collections.synchronizedList(new ArrayList<>());
        List<Integer> read = Collections.synchronizedList(new ArrayList<>());
        Thread w1 = start("W1", () -> {
            new Alternative(c.out()).priSelect();
            await(closed); // slow to follow its choice
            try {
                c.out().write(1);
                written.add(1);
            } catch (ChannelClosedException refused) {
                // not written: nothing to read
            }
        }, failure);
        Schedulers.awaitBlocked(w1);
        Thread w2 = start("W2", () -> {
            c.out().write(2);
            written.add(2);
        }, failure);
        Schedulers.awaitBlocked(w2);
        Thread r = start("R", () -> readToTheEnd(c.in(), read), failure);
        Schedulers.awaitBlocked(r);
        c.out().close();
        closed.countDown();
        join(w1, failure);
        join(w2, failure);
        join(r, failure);
        Collections.sort(written);
        List<Integer> sorted = new ArrayList<>(read);
        Collections.sort(sorted);
        assertEquals(written, sorted);
        assertTrue(read.contains(2), "W2's write returned, its value must be read: " + read);
    }

    /**
     * Readiness holds until someone takes: a writer waits in a select on a synchronous output; a select on the
     * input finds it ready, and stays ready, as does {@code pending()}, until the read takes the value.
     */
    @Test
    @Timeout(60)
    void anInputFoundReadyStaysReadyUntilSomeoneReads() throws Throwable {
        Any2AnyChannel<Integer> c = Channel.any2any();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch checked = new CountDownLatch(1);
        Thread w = start("W", () -> {
            assertEquals(0, new Alternative(c.out()).priSelect());
            await(checked); // slow to follow its choice
            c.out().write(5);
        }, failure);
        Schedulers.awaitBlocked(w);
        Alternative in = new Alternative(c.in());
        assertEquals(0, in.selectNow());
        assertEquals(0, in.selectNow(), "ready once, ready until someone takes");
        assertTrue(c.in().pending());
        checked.countDown();
        assertEquals(5, c.in().read());
        join(w, failure);
        assertEquals(-1, in.selectNow());
        assertFalse(c.in().pending());
    }

    /** The same from the other side: a reader waits in a select; the output stays ready until a write. */
    @Test
    @Timeout(60)
    void anOutputFoundReadyStaysReadyUntilSomeoneWrites() throws Throwable {
        Any2AnyChannel<Integer> c = Channel.any2any();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch checked = new CountDownLatch(1);
        AtomicReference<Integer> got = new AtomicReference<>();
        Thread r = start("R", () -> {
            assertEquals(0, new Alternative(c.in()).priSelect());
            await(checked);
            got.set(c.in().read());
        }, failure);
        Schedulers.awaitBlocked(r);
        Alternative out = new Alternative(c.out());
        assertEquals(0, out.selectNow());
        assertEquals(0, out.selectNow(), "ready once, ready until someone takes");
        checked.countDown();
        c.out().write(9);
        join(r, failure);
        assertEquals(9, got.get());
    }

    /**
     * A select whose process never does the operation it was chosen for (its owner read another channel) breaks
     * its promise: a reader that waited for it sees the end after a close instead of waiting for ever.
     */
    @Test
    @Timeout(60)
    void aBrokenPromiseLetsItsReaderSeeTheEnd() throws Throwable {
        Any2AnyChannel<Integer> c = Channel.any2any();
        One2OneChannel<Integer> other = Channel.one2one(1);
        other.out().write(3);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch readerWaits = new CountDownLatch(1);
        Thread w = start("W", () -> {
            new Alternative(c.out()).priSelect();
            await(readerWaits);
            assertEquals(3, other.in().read()); // not the write it was chosen for
        }, failure);
        Schedulers.awaitBlocked(w);
        List<Integer> read = Collections.synchronizedList(new ArrayList<>());
        Thread r = start("R", () -> readToTheEnd(c.in(), read), failure);
        Schedulers.awaitBlocked(r);
        c.out().close();
        readerWaits.countDown();
        join(w, failure);
        join(r, failure);
        assertEquals(List.of(), read);
    }

    /** A closed channel refuses a write that no select promised. */
    @Test
    @Timeout(60)
    void aWriteAfterTheCloseIsRefused() {
        Any2AnyChannel<Integer> c = Channel.any2any();
        c.out().close();
        assertThrows(ChannelClosedException.class, () -> c.out().write(1));
        assertThrows(ChannelClosedException.class, () -> c.in().read());
    }

    /** Reads until the end; then reads once more, which must see the end again, never a value. */
    @Pausable
    private static void readToTheEnd(ChannelInput<Integer> in, List<Integer> read) {
        try {
            for (;;) {
                read.add(in.read());
            }
        } catch (ChannelClosedException end) {
            try {
                Integer late = in.read();
                throw new AssertionError("read " + late + " after the end (values before it: " + read + ")");
            } catch (ChannelClosedException stillTheEnd) {
                // as it must be
            }
        }
    }

    /** Waits until {@code t} has ended or blocks in a pausable operation. */
    private static void awaitDoneOrBlocked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (t.isAlive() && !(java.util.concurrent.locks.LockSupport.getBlocker(t) instanceof Fiber)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(t + " neither ended nor blocked within " + BOUND_SECONDS + " s");
            }
            Thread.onSpinWait();
        }
    }
}
