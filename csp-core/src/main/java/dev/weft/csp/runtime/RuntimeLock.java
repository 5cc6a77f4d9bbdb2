package dev.weft.csp.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The lock of a runtime structure (a run queue, a worker's timers, its live fibers): held for a few field
 * updates, taken with one compare-and-set and left with a release store; a waiter spins briefly, then parks
 * in the {@link ParkingLot} until the holder leaves. (Public for the benchmark of contended locks.)
 */
public final class RuntimeLock implements ParkingLot.LockWord {
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(RuntimeLock.class, "word", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        ParkingLot.load();
    }

    /** {@link ParkingLot#LOCKED} and {@link ParkingLot#WAITERS}. */
    private volatile int word;

    /** Takes the lock; a {@link StackOverflowError} strikes here, not under it (see {@link StackReserve}). */
    public void lock() {
        StackReserve.forLock();
        if (!WORD.compareAndSet(this, 0, ParkingLot.LOCKED)) { // acquire (a full fence): mutual exclusion rests on it
            ParkingLot.lock(this);
        }
    }

    /** Takes the lock if it is free: false, at once, if another thread holds it. */
    public boolean tryLock() {
        StackReserve.forLock();
        int s = word; // a guess: the CAS checks it
        return (s & ParkingLot.LOCKED) == 0 && WORD.compareAndSet(this, s, s | ParkingLot.LOCKED);
    }

    /** Leaves the lock: a release store, or if a waiter is parked, {@link ParkingLot#unlock} wakes it. */
    public void unlock() {
        if ((word & ParkingLot.WAITERS) != 0) { // volatile read under the lock: only waiters change the word now
            ParkingLot.unlock(this);
        } else {
            WORD.setRelease(this, 0); // release: the critical section's writes precede it; a waiters bit set since
                                      // the read is lost, and the lot's waiters check for that (see ParkingLot)
        }
    }

    @Override
    public int lockWord() {
        return word;
    }

    @Override
    public boolean compareAndSetLockWord(int expected, int update) {
        return WORD.compareAndSet(this, expected, update);
    }
}
