package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.runtime.ParkingLot;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The runtime's lock protocol (a lock bit and a waiters bit in one word, waiters parked in the
 * {@link ParkingLot}): two threads increment a plain counter under the lock. The slow one holds it for longer
 * than the other spins, so the other often parks, and its waiters bit races the holder's release store.
 * Neither update is lost, both return, and the word ends free with no waiters bit.
 *
 * <p>Result: the counter, the lock word once both have finished.
 */
@JCStressTest
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "both increments kept; the lock free, nobody waiting")
@Outcome(expect = FORBIDDEN, desc = "a lost update (two holders at once), or the lock or its waiters bit left set")
@State
public class ParkingLockTest implements ParkingLot.LockWord {
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(ParkingLockTest.class, "word", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int word;
    private int counter; // plain: only the lock orders it

    @Override
    public int lockWord() {
        return word;
    }

    @Override
    public boolean compareAndSetLockWord(int expected, int update) {
        return WORD.compareAndSet(this, expected, update);
    }

    private void lock() {
        if (!WORD.compareAndSet(this, 0, ParkingLot.LOCKED)) {
            ParkingLot.lock(this);
        }
    }

    private void unlock() {
        if ((word & ParkingLot.WAITERS) != 0) {
            ParkingLot.unlock(this);
        } else {
            WORD.setRelease(this, 0); // as the runtime's locks leave: a bit set since the read is lost
        }
    }

    @Actor
    public void slowHolder() {
        lock();
        int c = counter;
        for (int i = 0; i < 300; i++) {
            Thread.onSpinWait(); // longer than a waiter spins before it parks
        }
        counter = c + 1;
        unlock();
    }

    @Actor
    public void quickHolder() {
        lock();
        counter = counter + 1;
        unlock();
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = counter;
        r.r2 = word;
    }
}
