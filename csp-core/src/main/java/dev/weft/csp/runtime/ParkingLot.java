package dev.weft.csp.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * Where threads wait for the runtime's spin locks once spinning has not got them the lock: a fixed table of
 * buckets, each a queue of parked threads, shared by every lock. A lock is a bit in a word of its owner
 * ({@link LockWord}); the lot costs that word one more bit, {@link #WAITERS}, and a lock nothing else.
 *
 * <p>A waiter spins briefly (the holder holds the lock for a few field updates), then sets {@link #WAITERS},
 * queues itself in the bucket of its lock's identity and parks. An unlock reads the word and, with the bit
 * clear, leaves with one release store (the uncontended cost); with it set, it wakes one waiter of that lock.
 * Under the bucket's monitor a waiter queues only while the word still shows the lock held with waiters, and
 * a slow unlock changes the word only while it holds that monitor: so either the unlocker finds the waiter
 * queued, or the waiter sees the change and tries again. Nobody waits a time slice per attempt for a holder
 * that was descheduled: the waiter sleeps until the holder leaves.
 *
 * <p>One race is left to the waiter: a bit set between the holder's read and its release store is lost to
 * that store, and nobody would wake the waiter. So a queued waiter checks the word: once after queuing, for
 * as long as a store takes to land ({@link #SPINS} spins), and again each time its park times out (after
 * 0.1 ms, then twice as long each time, up to {@link #LAST_CHECK_NANOS}). A word that no longer shows the lock
 * held with waiters makes it leave the queue and try again. A holder held up between its read and its store
 * (preempted there) costs the waiter one of those timeouts; so does the plain write that frees a lock after a
 * fault (see {@link StackReserve}), which wakes nobody.
 *
 * <p>A woken waiter competes with running threads (barging keeps the lock passing: handing it to a thread
 * that has yet to be scheduled would leave it idle while everyone waits); one that has lost
 * {@link #LOSSES_BEFORE_HANDOFF} times is handed the lock instead, so no waiter starves. Counting losses rather
 * than time keeps the hand-offs rare on a loaded machine, where every waiter waits long.
 *
 * <p>A waiter woken by an interrupt goes on waiting and keeps its interrupt status. Since a park may have
 * consumed an unpark meant for something else the thread waits on (a carrier's idle park, a plain thread's
 * channel wait), a waiter that parked leaves its permit set: at worst one spurious wake-up later, which every
 * park tolerates.
 *
 * <p>Nothing allocates after a thread's first park (its {@link Waiter}); a thread that cannot get one (out of
 * memory or stack) spins and yields as before rather than fail.
 *
 * <p>Runtime internals, not an API for users.
 */
public final class ParkingLot {
    /** The lock bit of a {@link LockWord}. */
    public static final int LOCKED = 1;
    /** Set in a {@link LockWord} while threads may be parked for its lock (a stale bit costs one look). */
    public static final int WAITERS = Integer.MIN_VALUE;
    /** Spins before a waiter parks: a holder that is running leaves within them. */
    private static final int SPINS = 100;
    /** A waiter woken this many times in vain is handed the lock by the next unlock rather than compete. */
    static final int LOSSES_BEFORE_HANDOFF = 2;
    private static final int NOT_PARKED = 0, WOKEN = 1, HANDED = 2, LEFT = 3;
    private static final Bucket[] BUCKETS = new Bucket[64];
    private static final ThreadLocal<Waiter> WAITER = ThreadLocal.withInitial(Waiter::new);

    /** A queued waiter's first park before it checks the word again; each next one is twice as long. */
    private static final long FIRST_CHECK_NANOS = 100_000;
    /** The longest park before a queued waiter checks the word again. */
    private static final long LAST_CHECK_NANOS = 10_000_000;

    static {
        for (int i = 0; i < BUCKETS.length; i++) {
            BUCKETS[i] = new Bucket();
        }
    }

    private ParkingLot() {
    }

    /**
     * Loads the lot. A lock's user calls it from its own class initializer: the lot's initializer must not run
     * first in a thread near the end of its stack, where a failure would break the class for good.
     */
    public static void load() {
        // the class initializer has run
    }

    /** A word holding a lock bit ({@link #LOCKED}), a {@link #WAITERS} bit, and any other bits of its owner. */
    public interface LockWord {
        /** The word, read with volatile semantics. */
        int lockWord();

        /** Compares and sets the word with volatile semantics. */
        boolean compareAndSetLockWord(int expected, int update);
    }

    /**
     * Takes the lock of {@code w} once the fast path (one compare-and-set) failed: spins, then parks. Returns
     * holding it. Before it queues anything it checks the stack for room to park and back
     * ({@link StackReserve#forOperation()}): a thread short of it spins and yields instead, so that nothing
     * can fail while it is queued.
     */
    public static void lock(LockWord w) {
        if (spin(w)) {
            return;
        }
        Waiter me;
        try {
            StackReserve.forOperation(); // room for the park, with a margin: failing here only means spinning
            me = WAITER.get();
        } catch (StackOverflowError | OutOfMemoryError e) {
            spinAndYield(w); // no room to park: the way the lock was taken before the lot
            return;
        }
        lockParking(w, me);
    }

    /**
     * Spins a while for the lock: true once taken. Even with others parked: parking as soon as one waiter
     * sleeps would turn every later acquisition into a park and a wake-up (a convoy), where the holder,
     * running, leaves within the spins.
     */
    private static boolean spin(LockWord w) {
        for (int spins = 0; spins < SPINS; spins++) {
            int s = w.lockWord(); // volatile read: a guess, checked by the CAS (read first: no write while held)
            if ((s & LOCKED) == 0 && w.compareAndSetLockWord(s, s | LOCKED)) { // acquire: the lock is taken here
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private static void lockParking(LockWord w, Waiter me) {
        me.parked = false;
        me.interrupted = false;
        me.losses = 0;
        for (;;) {
            int s = w.lockWord();
            if ((s & LOCKED) == 0) {
                if (w.compareAndSetLockWord(s, s | LOCKED)) {
                    break;
                }
            } else if ((s & WAITERS) != 0 || w.compareAndSetLockWord(s, s | WAITERS)) { // CAS: the holder may leave now
                int outcome = park(w, me);
                if (outcome == HANDED || outcome == WOKEN && spin(w)) {
                    break;
                }
                if (outcome == WOKEN) {
                    me.losses++;
                }
            }
        }
        if (me.interrupted) {
            Thread.currentThread().interrupt(); // also sets the permit
        } else if (me.parked) {
            LockSupport.unpark(me.thread); // a park may have consumed an unpark meant for another wait
        }
    }

    /** Queues {@code me} for {@code w}'s lock and parks until woken or handed the lock, or until it must look again. */
    private static int park(LockWord w, Waiter me) {
        Bucket b = bucketOf(w);
        synchronized (b) { // a slow unlock changes the word only under this monitor: it finds us queued, or we see it
            if (!heldWithWaiters(w)) {
                return NOT_PARKED; // released (or its waiters served) meanwhile: try again
            }
            me.key = w;
            me.outcome = NOT_PARKED;
            b.append(me);
        }
        me.parked = true;
        for (int spins = 0; spins < SPINS && me.outcome == NOT_PARKED; spins++) {
            if (!heldWithWaiters(w)) {
                return leave(b, me); // the holder's release store landed over the bit just set
            }
            Thread.onSpinWait();
        }
        long timeout = FIRST_CHECK_NANOS;
        long start = System.nanoTime();
        for (;;) {
            LockSupport.parkNanos(b, timeout - (System.nanoTime() - start));
            int outcome = me.outcome; // volatile: written under the monitor before the unpark, read without it
            if (outcome != NOT_PARKED) {
                return outcome;
            }
            if (Thread.interrupted()) {
                me.interrupted = true; // restored once the lock is taken
            } else if (System.nanoTime() - start >= timeout) {
                if (!heldWithWaiters(w)) {
                    return leave(b, me); // a lost bit, a holder preempted in its release, a fault's release
                }
                timeout = Math.min(timeout * 2, LAST_CHECK_NANOS); // still held, and the bit shows: wait on
                start = System.nanoTime();
            }
            // a spurious wake-up, an unpark meant for another wait, or a check passed: park again
        }
    }

    /** Whether the word shows the lock held with waiters: only then will an unlock wake a queued waiter. */
    private static boolean heldWithWaiters(LockWord w) {
        return (w.lockWord() & (LOCKED | WAITERS)) == (LOCKED | WAITERS);
    }

    /** Takes {@code me} off its queue to try again, unless an unlock has just taken it off (its outcome then). */
    private static int leave(Bucket b, Waiter me) {
        synchronized (b) {
            if (me.outcome == NOT_PARKED) {
                b.remove(me);
                me.key = null;
                me.left++;
                return LEFT;
            }
        }
        return me.outcome;
    }

    /**
     * Frees the lock of {@code w} when the fast path (one compare-and-set of a word without {@link #WAITERS})
     * failed: wakes the first waiter of this lock, or hands it the lock if it has lost it too often.
     */
    public static void unlock(LockWord w) {
        Bucket b = bucketOf(w);
        Thread wake = null;
        synchronized (b) {
            Waiter first = b.removeFirst(w);
            boolean more = b.holds(w);
            boolean handOff = first != null && first.losses >= LOSSES_BEFORE_HANDOFF;
            int clear = (handOff ? 0 : LOCKED) | (more ? 0 : WAITERS);
            for (;;) { // a CAS, not a store: a newcomer may set WAITERS at any time
                int s = w.lockWord();
                if (w.compareAndSetLockWord(s, s & ~clear)) { // release of the critical section, as the fast path's store
                    break;
                }
            }
            if (first != null) {
                first.key = null;
                first.outcome = handOff ? HANDED : WOKEN;
                wake = first.thread;
            }
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    /** The fallback of a thread that cannot park: spin, then yield to a descheduled holder. */
    private static void spinAndYield(LockWord w) {
        for (;;) {
            int s = w.lockWord();
            if ((s & LOCKED) == 0 && w.compareAndSetLockWord(s, s | LOCKED)) {
                return;
            }
            Thread.yield();
        }
    }

    /** How often the calling thread left the queue on its own check, not woken by an unlock: for tests. */
    static int leftOnOwnCheck() {
        return WAITER.get().left;
    }

    /** Whether {@code t} is parked in the lot (or about to, or just woken): for tests. */
    static boolean isParkedHere(Thread t) {
        return LockSupport.getBlocker(t) instanceof Bucket;
    }

    private static Bucket bucketOf(LockWord w) {
        int h = System.identityHashCode(w);
        return BUCKETS[(h ^ (h >>> 16)) & (BUCKETS.length - 1)];
    }

    /** A thread's place in a bucket's queue, reused for each of its waits. */
    private static final class Waiter {
        final Thread thread = Thread.currentThread();
        /** The lock waited for while queued, under the bucket's monitor. */
        LockWord key;
        Waiter next;
        /** How often this acquisition was woken and found the lock taken again (read under the monitor). */
        int losses;
        /** {@link #NOT_PARKED} while queued; then how an unlock released it (written under the monitor). */
        volatile int outcome;
        /** This acquisition parked, or saw an interrupt (the owner's own fields). */
        boolean parked;
        boolean interrupted;
        /** How often this thread's own check of the word, not an unlock, ended a park (for tests). */
        int left;
    }

    /** Waiters of every lock that hashes here, in arrival order, under the bucket's monitor. */
    private static final class Bucket {
        private Waiter head;
        private Waiter tail;

        void append(Waiter n) {
            n.next = null;
            if (tail == null) {
                head = n;
            } else {
                tail.next = n;
            }
            tail = n;
        }

        /** Removes and returns the first waiter for {@code key}, or null. */
        Waiter removeFirst(LockWord key) {
            Waiter prev = null;
            for (Waiter n = head; n != null; prev = n, n = n.next) {
                if (n.key == key) {
                    unlink(prev, n);
                    return n;
                }
            }
            return null;
        }

        boolean holds(LockWord key) {
            for (Waiter n = head; n != null; n = n.next) {
                if (n.key == key) {
                    return true;
                }
            }
            return false;
        }

        void remove(Waiter n) {
            Waiter prev = null;
            for (Waiter p = head; p != n; p = p.next) {
                prev = p;
            }
            unlink(prev, n);
        }

        private void unlink(Waiter prev, Waiter n) {
            Waiter next = n.next;
            if (prev == null) {
                head = next;
            } else {
                prev.next = next;
            }
            if (tail == n) {
                tail = prev;
            }
            n.next = null;
        }
    }
}
