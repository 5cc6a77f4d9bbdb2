package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtime's locks wait in the {@link ParkingLot}: mutual exclusion under forced contention, wake-ups
 * by the unlock (not by the waiter's own check), interrupts kept, the hand-off, releases that could not wake
 * a waiter found by its check.
 */
class ParkingLotTest {
    private static final int THREADS = 8;

    @Test
    @Timeout(120)
    void excludesUnderContentionWithHoldersDescheduled() {
        for (int round = 0; round < 5; round++) {
            RuntimeLock lock = new RuntimeLock();
            Guarded guarded = new Guarded();
            AtomicInteger parkedWhileHeld = new AtomicInteger();
            runThreads(THREADS, id -> {
                for (int i = 0; i < 20_000; i++) {
                    lock.lock();
                    guarded.enter();
                    if (i % 500 == id) {
                        // hold on until a waiter has parked: the next unlock must wake it
                        if (awaitWaiters(lock, guarded)) {
                            parkedWhileHeld.incrementAndGet();
                        }
                    } else if ((i & 63) == 0) {
                        Thread.yield(); // a holder descheduled in its critical section
                    }
                    guarded.leave();
                    lock.unlock();
                }
                guarded.finished.incrementAndGet();
            });
            assertEquals(THREADS * 20_000, guarded.count);
            assertNull(guarded.overlap.get(), "two holders at once");
            assertTrue(parkedWhileHeld.get() > 0, "no waiter ever parked");
            assertEquals(0, lock.lockWord(), "the lock is free and nobody is left waiting");
        }
    }

    @Test
    @Timeout(30)
    void waitersParkWhileTheHolderIsSlowAndItsUnlockWakesThem() throws Exception {
        for (int waiters = 1; waiters <= 3; waiters++) {
            RuntimeLock lock = new RuntimeLock();
            lock.lock();
            List<Thread> threads = new ArrayList<>();
            AtomicInteger acquired = new AtomicInteger();
            AtomicInteger leftOnOwnCheck = new AtomicInteger();
            for (int i = 0; i < waiters; i++) {
                Thread t = new Thread(() -> {
                    lock.lock();
                    acquired.incrementAndGet();
                    leftOnOwnCheck.addAndGet(ParkingLot.leftOnOwnCheck());
                    lock.unlock();
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                LotProbe.awaitParked(t);
            }
            assertTrue((lock.lockWord() & ParkingLot.WAITERS) != 0);
            assertEquals(0, acquired.get(), "nobody enters while the lock is held");
            lock.unlock();
            joinAll(threads);
            assertEquals(waiters, acquired.get());
            if (waiters == 1) {
                // one waiter, whose bit was set long before the unlock: the unlock woke it, not its own check
                assertEquals(0, leftOnOwnCheck.get());
            }
            assertEquals(0, lock.lockWord());
        }
    }

    @Test
    @Timeout(30)
    void anInterruptedWaiterGoesOnWaitingAndKeepsItsInterrupt() {
        for (boolean interruptedBefore : new boolean[] {false, true}) {
            RuntimeLock lock = new RuntimeLock();
            lock.lock();
            AtomicReference<Boolean> interruptedInside = new AtomicReference<>();
            AtomicInteger acquired = new AtomicInteger();
            AtomicInteger leftOnOwnCheck = new AtomicInteger(-1);
            Thread t = new Thread(() -> {
                if (interruptedBefore) {
                    Thread.currentThread().interrupt();
                }
                lock.lock();
                acquired.incrementAndGet();
                interruptedInside.set(Thread.currentThread().isInterrupted());
                leftOnOwnCheck.set(ParkingLot.leftOnOwnCheck());
                lock.unlock();
            });
            t.start();
            LotProbe.awaitParked(t);
            if (!interruptedBefore) {
                t.interrupt();
            }
            // the waiter clears its status to park again (a park returns at once while it is set)
            while (t.isInterrupted() || !ParkingLot.isParkedHere(t)
                    || t.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            assertEquals(0, acquired.get(), "an interrupt does not end the wait for the lock");
            lock.unlock();
            joinAll(List.of(t));
            assertEquals(Boolean.TRUE, interruptedInside.get(), "the interrupt is kept");
            assertEquals(0, leftOnOwnCheck.get(), "the unlock woke it");
        }
    }

    @Test
    @Timeout(60)
    void aWaiterThatKeepsLosingIsHandedTheLock() {
        for (int round = 0; round < 20; round++) {
            RuntimeLock lock = new RuntimeLock();
            lock.lock();
            AtomicInteger acquired = new AtomicInteger();
            Thread waiter = new Thread(() -> {
                lock.lock();
                acquired.incrementAndGet();
                lock.unlock();
            });
            waiter.start();
            LotProbe.awaitParked(waiter);
            // This thread runs on: it takes the lock back before the woken waiter gets to it, or the waiter
            // wins. Either way, by its last wake-up the waiter is handed the lock.
            int unlocks = 0;
            while (acquired.get() == 0) {
                assertTrue(unlocks <= ParkingLot.LOSSES_BEFORE_HANDOFF, "the waiter starves");
                lock.unlock();
                unlocks++;
                lock.lock();
                while (acquired.get() == 0 && ((lock.lockWord() & ParkingLot.WAITERS) == 0
                        || !ParkingLot.isParkedHere(waiter) || waiter.getState() != Thread.State.TIMED_WAITING)) {
                    Thread.onSpinWait(); // until it has lost and parked again
                }
            }
            lock.unlock();
            joinAll(List.of(waiter));
            assertEquals(0, lock.lockWord());
        }
    }

    @Test
    @Timeout(60)
    void aWaiterFindsAReleaseThatCouldNotWakeIt() throws Exception {
        // A release store that read the word before the waiter set its bit (the bit is lost, nobody is woken),
        // and a fault's last-resort plain write (the bit stays, nobody is woken): the waiter's own check of the
        // word finds the lock free.
        for (int lost = 0; lost < 2; lost++) {
            Word w = new Word();
            w.word = ParkingLot.LOCKED;
            Thread t = new Thread(() -> {
                ParkingLot.lock(w);
                w.word &= ~ParkingLot.LOCKED;
            });
            t.start();
            LotProbe.awaitParked(t);
            assertEquals(ParkingLot.LOCKED | ParkingLot.WAITERS, w.word);
            w.word = lost == 0 ? 0 : ParkingLot.WAITERS;
            t.join(30_000);
            assertFalse(t.isAlive());
            ParkingLot.lock(w);
            ParkingLot.unlock(w);
            assertEquals(0, w.word, "the next unlock clears a stale waiters bit");
        }
    }

    /** A lock word with a plain field, as a channel's state. */
    private static final class Word implements ParkingLot.LockWord {
        volatile int word;

        @Override
        public int lockWord() {
            return word;
        }

        @Override
        public synchronized boolean compareAndSetLockWord(int expected, int update) {
            if (word != expected) {
                return false;
            }
            word = update;
            return true;
        }
    }

    /** State that only one thread at a time may change. */
    private static final class Guarded {
        final AtomicReference<Thread> overlap = new AtomicReference<>();
        final AtomicInteger finished = new AtomicInteger();
        private Thread inside;
        long count;

        void enter() {
            if (inside != null) {
                overlap.set(inside);
            }
            inside = Thread.currentThread();
        }

        void leave() {
            if (inside != Thread.currentThread()) {
                overlap.set(inside);
            }
            count++; // a plain increment: lost updates show a broken exclusion
            inside = null;
        }
    }

    /** Holds on until another thread has set the waiters bit, or every other thread has finished. */
    private static boolean awaitWaiters(RuntimeLock lock, Guarded guarded) {
        while ((lock.lockWord() & ParkingLot.WAITERS) == 0) {
            if (guarded.finished.get() == THREADS - 1) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private interface Body {
        void run(int id);
    }

    private static void runThreads(int n, Body body) {
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            Thread t = new Thread(() -> body.run(id));
            t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            t.start();
            threads.add(t);
        }
        joinAll(threads);
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    private static void joinAll(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError("interrupted (timed out?)", e);
            }
        }
    }
}
