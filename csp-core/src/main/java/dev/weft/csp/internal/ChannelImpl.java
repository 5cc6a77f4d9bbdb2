package dev.weft.csp.internal;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2AnyChannel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.SharedAltingChannelInput;
import dev.weft.csp.SharedAltingChannelOutput;
import dev.weft.csp.runtime.ParkingLot;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.WorkerPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * Every kind of channel: synchronous or buffered, single or shared ends. State changes under a small lock:
 * one compare-and-set takes it, a release store leaves it; a thread that finds it held spins briefly, then
 * parks in the {@link ParkingLot} until the holder leaves (see {@link #lock()}). Waiting readers and writers
 * queue in arrival order; a waiting writer's value rides in its fiber. The second party of an exchange
 * completes it and wakes the first.
 *
 * <p>A fiber that must wait queues itself and keeps the lock while it unwinds; the lock is released once the
 * fiber is fully paused ({@link FiberPauses#parkLocked}). The party that later takes it from the queue therefore
 * owns its wake-up outright: an uncontended rendezvous costs each side one compare-and-set, the lock's.
 *
 * <p>Alternatives register on a channel end like waiting parties. A party that claims a registration commits
 * its alternative to this end and turns the registration into a <em>promise</em>
 * ({@link Selection.Registration#promisedAt}): the alternative's process will come and do this end's operation.
 * A promise stands for that party from the moment of the claim, so that shared ends with selecting parties
 * behave as a channel without them: each writer's values arrive in order, nothing is read after the end, and
 * an end once ready stays ready until someone takes. What every operation relies on, under the lock:
 *
 * <ol>
 * <li><b>A waiting reader means nothing to read.</b> A reader fiber waits at the input only while the buffer
 *     is empty and no writer fiber waits: a writer serves the first waiting reader fiber before any select,
 *     a reader takes the first waiting writer fiber before any promise. (A reader may also wait for a
 *     writer's promise it holds: 3.)
 * <li><b>A waiting writer means no room.</b> A writer fiber waits at the output only while no reader fiber
 *     waits and the buffer, if any, is full. So a value goes straight to a reader only while the buffer is
 *     empty, and values leave in the order they came: each writer's in its order.
 * <li><b>Every writer's promise is somewhere.</b> A writer's promise is queued at the output until its process
 *     comes, or held by exactly one reader that waits for it (in the reader's {@link Fiber#transfer}). The
 *     promised writer serves that reader; a reader served by another writer first, or withdrawn, passes the
 *     promise on to the next reader waiting without one, or back to the output's queue; a promise whose
 *     process does something else is broken ({@link #breakPromise}) and its reader looks again. So a reader
 *     waits without a promise only while none is queued.
 * <li><b>The end comes last.</b> After a close a reader sees the end only when the buffer is empty and no
 *     writer fiber or writer's promise is queued or held: every value written, or promised by a select,
 *     before the close is read first. A promised write goes through after a close (its process committed
 *     before it); any other write is refused.
 * <li><b>Ready until someone takes.</b> A select's check that finds an open registration at the other end
 *     claims it as a promise and leaves it queued, so the end stays ready ({@link In#pending()}, the next
 *     check) until an operation takes the promise.
 * <li>A registration is <em>open</em> (its select chose nothing yet), a promise, or <em>dead</em> (its select
 *     chose something else): dead ones are dropped where met; a select that ends takes its open and dead
 *     ones out, never a promise.
 * <li><b>A committed operation waits only for a party that may be bound to come.</b> A {@code Select}'s chosen
 *     case ({@link Fiber#committed}) ignores cancellation, so it must not wait where no partner is bound to
 *     come. If another party of a shared end took what the choice saw, and there is neither a partner, nor a
 *     promise of one, nor the end, nor a promise of its own that a partner's check claimed (that partner's
 *     process may come for it, after an {@code Alternative}'s choice, counting on it: 3), it exchanges nothing
 *     and says {@link #TAKEN}; the select chooses again. A writer's promise given back to the queue by a reader
 *     served by another writer is {@link Selection.Registration#orphaned}: nobody counts on it. The decision is
 *     made under the same lock as the wait it would start, so a promise it finds cannot leave meanwhile (Go's
 *     select likewise sends or receives as part of its choice).
 * </ol>
 *
 * <p>Faults. A {@link StackOverflowError} can strike at any call, and a lock left held would stall every
 * later user of the channel. So {@link #lock()} first checks that the stack has room for the rest of the
 * operation ({@link StackReserve}): the critical section, the wake-ups after it and the start of a pause. A
 * thread with too little stack fails there, before anything has changed. Nothing under the lock allocates
 * (the wait queues are linked through their waiters), so an {@link OutOfMemoryError} cannot strike there
 * either. As a last resort, anything thrown while the lock is held frees it in a handler of the operation's
 * own frame, with a plain write of {@link #state}: a handler needs no new frame and the write no call, so
 * the release itself cannot overflow the stack. Such a write wakes no parked waiter: the waiter's own checks
 * of the word find the lock free (see {@link ParkingLot}).
 */
public final class ChannelImpl<T> implements One2OneChannel<T>, Any2OneChannel<T>, One2AnyChannel<T>,
        Any2AnyChannel<T>, ParkingLot.LockWord {
    private static final Object POISON = new Object();
    /** The {@link Fiber#transfer} of a reader woken by a close: nothing is left to read. */
    private static final Object CLOSED_END = new Object();
    // The state word: the lock bit, the lot's waiters bit and the flags, in one int so that a channel stays small.
    public static final int LOCKED = ParkingLot.LOCKED;
    public static final int WAITERS = ParkingLot.WAITERS;
    private static final int POISONED = 2, SHARED_READERS = 4, SHARED_WRITERS = 8, CLOSED = 16;
    /** Fixed at creation: a plain thread made the channel (see {@link Uses}); a bit, so the channel does not grow. */
    private static final int MADE_OUTSIDE = 32;
    private static final VarHandle STATE;
    /**
     * Whether every release of the lock first checks the invariants above ({@code -Dweft.checkChannels=true}, as
     * the tests run): a debugging aid, as Go's {@code debugChan}; off, the check is compiled away.
     */
    private static final boolean CHECK_INVARIANTS = Boolean.getBoolean("weft.checkChannels");

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ChannelImpl.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        ParkingLot.load();
    }

    private final ChannelBuffer<T> buffer; // null: synchronous
    private final In in = new In();
    private final Out out = new Out();
    /**
     * {@link #LOCKED}, {@link #POISONED} and {@link #CLOSED} (changed under the lock), {@link #WAITERS} (set by
     * waiters while the lock is held), the fixed sharing flags and {@link #MADE_OUTSIDE}. Changes under the
     * lock are atomic, as a waiter may set {@link #WAITERS} at any time; only the release itself (and a fault's
     * last-resort one) is a plain store, which the lot's waiters allow for. Under the lock, the flags are read
     * with plain volatile reads: they change only under it. Not private: a failure handler of
     * {@link Alternative} frees the lock with a plain write of it (see Faults above).
     */
    public volatile int state;
    /** Who has used the channel, under the lock; see {@link Uses}. */
    private Object users = Uses.creator();
    /**
     * The last party waiting at the input, whose link leads to the first ({@link WaitQueue}), or null: kept here
     * rather than in the end, so that an end holds nothing but its channel (8 bytes less per channel).
     */
    private Object inLast;
    /** As {@link #inLast}, at the output. */
    private Object outLast;

    public ChannelImpl(ChannelBuffer<T> buffer, boolean sharedReaders, boolean sharedWriters) {
        ChannelBuffer<T> b = buffer == null ? null : buffer.claim();
        this.buffer = b == null || b.isSynchronous() ? null : b;
        this.state = (sharedReaders ? SHARED_READERS : 0) | (sharedWriters ? SHARED_WRITERS : 0)
                | (users == Uses.UNUSED ? MADE_OUTSIDE : 0);
    }

    @Override
    public In in() {
        return in;
    }

    @Override
    public Out out() {
        return out;
    }

    /** Named by its identity hash: a channel carries no number of its own (8 bytes less per channel). */
    @Override
    public String toString() {
        return "channel #" + Integer.toHexString(System.identityHashCode(this));
    }

    // ------------------------------------------------------------------------------------ locking

    /**
     * Takes the lock: one compare-and-set, or if it is held, {@link ParkingLot#lock} (spin briefly, then park).
     * Every operation that takes it has checked the stack first (see Faults above): not here, as a check
     * deeper down than the operation's own could fail after the operation has changed something.
     */
    public void lock() {
        int s = state; // volatile read: a guess, checked by the CAS
        // The CAS is the acquire (a full fence): what the last holder wrote before its release is visible here.
        if ((s & LOCKED) != 0 || !STATE.compareAndSet(this, s, s | LOCKED)) {
            ParkingLot.lock(this);
        }
    }

    /**
     * Leaves the lock: one release store, or if a waiter is parked, {@link ParkingLot#unlock} wakes it. A waiter
     * that sets {@link #WAITERS} between the read and the store loses the bit to the store; the lot's waiters
     * check for that (see {@link ParkingLot}).
     */
    public void unlock() {
        if (CHECK_INVARIANTS) {
            checkInvariants();
        }
        int s = state; // under the lock, only a waiter setting WAITERS can change the word
        if ((s & WAITERS) != 0) {
            ParkingLot.unlock(this);
        } else {
            // A release store: the critical section's writes precede it for the next holder's CAS. A WAITERS bit set
            // since the read is lost; the lot's waiters check the word for that (see ParkingLot).
            STATE.setRelease(this, s & ~LOCKED);
        }
    }

    /**
     * How many waiters of each queue {@link #checkInvariants} looks at: the check runs at every unlock, so walking
     * a whole queue would make a channel with 100,000 waiting fibers quadratic (minutes instead of a second).
     */
    private static final int CHECKED_WAITERS = 64;

    /**
     * Checks invariants 1 to 4 and 6 under the lock, over the first {@link #CHECKED_WAITERS} waiters of each
     * queue; throws {@link AssertionError} naming the one broken.
     */
    private void checkInvariants() {
        boolean empty = buffer == null || buffer.isEmpty();
        boolean full = buffer == null || !buffer.hasSpace();
        boolean writerWaits = false;
        boolean writerPromised = false;
        int budget = CHECKED_WAITERS;
        boolean partial = false; // a queue longer than the budget: the checks that need every waiter are skipped
        for (Object w = out.peek(), l = outLast; w != null; w = w == l ? null : WaitQueue.next(w)) {
            if (--budget < 0) {
                partial = true;
                break;
            }
            if (w instanceof Fiber) {
                writerWaits = true;
            } else {
                Selection.Registration r = (Selection.Registration) w;
                check(r.promisedAt == null || r.promisedAt == out, "6: a promise queued at the wrong end");
                writerPromised |= r.promisedAt != null;
            }
        }
        boolean readerWaits = false;
        boolean promiseHeld = false;
        budget = CHECKED_WAITERS;
        for (Object w = in.peek(), l = inLast; w != null; w = w == l ? null : WaitQueue.next(w)) {
            if (--budget < 0) {
                partial = true;
                break;
            }
            if (w instanceof Fiber) {
                Object held = ((Fiber) w).transfer;
                boolean holds = held instanceof Selection.Registration;
                check(!holds || ((Selection.Registration) held).promisedAt == out, "3: a reader holds no writer's promise");
                check(empty && !writerWaits, "1: a reader waits beside a value");
                check(holds || !writerPromised, "1: a reader waits beside a writer's promise it does not hold");
                readerWaits = true;
                promiseHeld |= holds;
            } else {
                Selection.Registration r = (Selection.Registration) w;
                check(r.promisedAt == null || r.promisedAt == in, "6: a promise queued at the wrong end");
            }
        }
        check(!writerWaits || (!readerWaits && full), "2: a writer waits beside a reader or room");
        check(!readerWaits || !closed() || promiseHeld || writerPromised || partial, "4: a reader waits after the end");
    }

    private void check(boolean holds, String invariant) {
        if (!holds) {
            throw new AssertionError(this + " breaks invariant " + invariant);
        }
    }

    @Override
    public int lockWord() {
        return state;
    }

    @Override
    public boolean compareAndSetLockWord(int expected, int update) {
        return STATE.compareAndSet(this, expected, update);
    }

    /** Whether the channel is poisoned; under the lock. */
    private boolean poisoned() {
        return (state & POISONED) != 0;
    }

    /** A fiber queued here failed before its {@link FiberPauses#parkLocked} completed: it leaves, the lock is freed. */
    void abandon(Fiber f) {
        try {
            if (in.remove(f)) {
                giveBackPromise(f);
            }
            out.remove(f);
            f.transfer = null;
            unlock();
        } catch (Throwable t) {
            state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
            throw t;
        }
    }

    /**
     * The order in which alternatives take the locks of several channels, the same for every alternative:
     * by identity hash, and for the rare two channels with equal hashes, by a rank each gets when first found
     * so tied ({@link LockRanks}).
     */
    public static int lockOrder(ChannelImpl<?> a, ChannelImpl<?> b) {
        int c = Integer.compare(System.identityHashCode(a), System.identityHashCode(b));
        return c != 0 || a == b ? c : Long.compare(LockRanks.of(a), LockRanks.of(b));
    }

    /** Records a use by a party of pool {@code p} (null: a plain thread). Under the lock. */
    private void use(WorkerPool p) {
        if (p != users && users != null) {
            users = Uses.after(users, p);
        }
    }

    // ------------------------------------------------------------------------------ queue helpers

    /**
     * Takes the party that an operation on the other end meets at {@code q}: the first waiting fiber, ahead of
     * every select (invariants 1, 2); else the first promise, or the first open registration, claimed as one
     * and its process woken (it has an operation to do here). A promise is taken out of the queue: the caller
     * waits for its process (invariant 3). Dead registrations met on the way are dropped. Null if nobody is
     * there.
     */
    private static Object takeParty(End q) {
        Fiber f = q.pollFiber();
        return f != null ? f : takePromise(q);
    }

    /** As {@link #takeParty} where no fiber is queued at {@code q}: a promise or an open registration, or null. */
    private static Selection.Registration takePromise(End q) {
        for (Object p = q.poll(); p != null; p = q.poll()) { // only registrations are queued
            Selection.Registration r = (Selection.Registration) p;
            if (r.promisedAt != null) {
                r.orphaned = false; // its taker waits for it
                return r;
            }
            if (promise(r, q)) {
                r.selection.fiber.unparkReserved();
                return r;
            }
        }
        return null;
    }

    /** Claims open registration {@code r}, queued at {@code at}, as a promise; false if its select chose first. */
    private static boolean promise(Selection.Registration r, End at) {
        if (!r.selection.claim(r.index)) {
            return false;
        }
        r.promisedAt = at;
        return true;
    }

    /**
     * Whether a select's check finds a partner at {@code q}: a waiting fiber, a promise, or an open registration
     * of another select, which it claims as a promise and leaves queued (invariant 5), adding its process to
     * {@code wake}. Dead registrations at the head are dropped. False at a registration of {@code self}: one
     * alternative on both ends of a channel does not meet itself.
     */
    private static boolean findPartner(End q, Selection self, List<Fiber> wake) {
        for (Object p = q.peek(); p != null; p = q.peek()) {
            if (p instanceof Fiber) {
                return true;
            }
            Selection.Registration r = (Selection.Registration) p;
            if (r.selection == self) {
                return false;
            }
            if (r.promisedAt != null) {
                r.orphaned = false; // the checking select's process may come for it (invariant 7)
                return true;
            }
            if (promise(r, q)) {
                wake.add(r.selection.fiber);
                return true;
            }
            q.poll(); // dead
        }
        return false;
    }

    /** Wakes the select of a registration taken by {@link WaitQueue#pollOpenRegistration()}, if any. */
    private static void wake(Selection.Registration r) {
        if (r != null) {
            r.selection.fiber.unparkReserved();
        }
    }

    /**
     * Hands {@code value} to reader {@code r}, just taken from the input's queue. A reader that waited for a
     * writer's promise other than {@code fulfilled} gives that promise back (invariant 3).
     */
    private void deliver(Fiber r, Object value, Selection.Registration fulfilled) {
        if (r.transfer != fulfilled) {
            giveBackPromise(r);
        }
        r.transfer = value;
    }

    /**
     * A reader leaving the input's queue without its promised value passes the promise on: to the first reader
     * still waiting without one, or back to the output's queue (invariants 1, 3).
     */
    private void giveBackPromise(Fiber reader) {
        if (reader.transfer instanceof Selection.Registration) {
            Fiber next = in.fiberHolding(null);
            if (next != null) {
                next.transfer = reader.transfer;
            } else {
                ((Selection.Registration) reader.transfer).orphaned = true; // until a reader takes it (invariant 7)
                out.addFirst(reader.transfer);
            }
            reader.transfer = null;
        }
    }

    /**
     * Whether readers see the end now (invariant 4): closed, and neither a value nor a writer's promise is left,
     * queued or held. Under the lock.
     */
    private boolean endReached() {
        return closed() && (buffer == null || buffer.isEmpty()) && !out.hasFiberOrPromise()
                && !in.hasFiberHoldingPromise();
    }

    /** Takes the waiting readers out if they see the end now, chained for {@link #wakeWith}; else null. */
    private Object readersAtTheEnd() {
        return endReached() ? in.drainFibersWithoutPromise() : null;
    }

    /**
     * The promise that {@code me}'s last select left for an operation on {@code end} (its {@link Fiber#transfer},
     * set by {@link Alternative}), taken from there; null if none. A promise left at another end is broken
     * first: the process did something else. Before the operation takes a lock.
     */
    private static Selection.Registration promiseOf(Fiber me, End end) {
        Object t = me.transfer;
        if (!(t instanceof Selection.Registration)) {
            return null;
        }
        me.transfer = null;
        Selection.Registration r = (Selection.Registration) t;
        if (r.promisedAt == end) {
            return r;
        }
        breakPromise(r);
        return null;
    }

    /**
     * Withdraws promise {@code r}: its process will not do the operation it was claimed for (it ended, or did
     * another operation first). A reader that held it looks again: it takes a writer or another promise, sees
     * the end, or waits as any reader (invariant 3).
     */
    public static void breakPromise(Selection.Registration r) {
        End at = r.promisedAt;
        ChannelImpl<?> c = at.channel();
        StackReserve.forOperation();
        c.lock();
        Fiber reader = null;
        Fiber writer = null;
        Object ended = null;
        try {
            if (!at.remove(r) && at == c.out) {
                reader = c.in.fiberHolding(r);
                if (reader != null) {
                    reader.transfer = null;
                    Object w = takeParty(c.out);
                    if (w instanceof Fiber) {
                        writer = (Fiber) w;
                        c.in.remove(reader);
                        reader.transfer = writer.transfer;
                        writer.transfer = null;
                    } else {
                        reader.transfer = w; // a promise, or null: it waits as any reader
                        reader = null;
                    }
                }
            }
            ended = c.readersAtTheEnd();
            c.unlock();
        } catch (Throwable t) {
            c.state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
            throw t;
        }
        if (writer != null) {
            writer.wakeFromChannel();
            reader.wakeFromChannel();
        }
        wakeWith(ended, CLOSED_END);
    }

    /**
     * Before {@link FiberPauses#parkLocked}: a plain thread releases the lock here, a fiber keeps it while it unwinds
     * (its carrier releases it). Returns false, what the caller's {@code locked} becomes: assigned only once
     * this returns, so a failure in the release leaves it true for the caller's handler.
     */
    private boolean waitLocked(Fiber me) {
        if (me.isThreadBound()) {
            unlock();
        }
        return false;
    }

    private static PoisonException poisonedError() {
        return new PoisonException("the channel is poisoned");
    }

    private ChannelClosedException closedError() {
        return new ChannelClosedException(this + " is closed");
    }

    /** Whether the channel is closed; under the lock. */
    private boolean closed() {
        return (state & CLOSED) != 0;
    }

    /**
     * Poisons ({@code poison}) or closes the channel. Poison empties the buffer and both queues: everyone waiting
     * throws. A close leaves what was written: writers already waiting stay queued and promised writers still
     * come, their values still to be read; waiting readers see the end if nothing is left (invariant 4), and
     * alternatives waiting on either end count the end as ready. Either is final; poison may follow a close, not
     * the reverse.
     */
    private void end(boolean poison) {
        Object r = null;
        Object w = null;
        Object ended = null;
        WorkerPool p = Uses.callerPool();
        StackReserve.forOperation();
        lock();
        try {
            use(p);
            if (!poisoned() && (poison || !closed())) {
                if (poison && buffer != null) {
                    buffer.clear();
                }
                STATE.getAndBitwiseOr(this, poison ? POISONED : CLOSED); // atomic: a waiter may set WAITERS
                r = poison ? in.drain() : in.drainSelections();
                w = poison ? out.drain() : out.drainSelections();
                ended = poison ? null : readersAtTheEnd();
            }
            unlock();
        } catch (Throwable t) {
            state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
            throw t;
        }
        Object outcome = poison ? POISON : CLOSED_END;
        wakeWith(r, outcome);
        wakeWith(w, outcome);
        wakeWith(ended, outcome);
    }

    /** Wakes a chain of parties from {@link WaitQueue#drain()}, fibers with {@code outcome} as their transfer. */
    private static void wakeWith(Object first, Object outcome) {
        for (Object p = first, next; p != null; p = next) {
            next = WaitQueue.detach(p); // before the wake-up: a woken fiber may queue elsewhere at once
            if (p instanceof Fiber) {
                Fiber f = (Fiber) p;
                f.transfer = outcome;
                f.wakeFromChannel();
            } else {
                Selection.Registration r = (Selection.Registration) p;
                if (r.selection.claim(r.index)) {
                    r.selection.fiber.unparkReserved(); // a poisoned or closed guard counts as ready
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private T received(Fiber me) {
        Object v = me.transfer;
        me.transfer = null;
        if (v == POISON) {
            throw poisonedError();
        }
        if (v == CLOSED_END) {
            throw closedError();
        }
        if (v == Fiber.WITHDRAWN) {
            throw me.cancelledError();
        }
        return (T) v;
    }

    /**
     * Takes the lock for an operation of {@code me} on {@code end} and records the use. Returns true with the
     * lock held, or false with it released if the operation must throw {@link #refusal}: {@code me} is
     * cancelled (unless the operation follows a selection a partner counts on: {@link Fiber#committed}, or it
     * is {@code promised}), or the channel poisoned, or closed to writes that were not promised (invariant 4).
     */
    private boolean lockFor(Fiber me, End end, boolean promised) {
        StackReserve.forOperation();
        me.willWaitOn(end); // before the lock: see Fiber.cancel
        lock();
        boolean refused;
        try {
            use(me.pool());
            refused = (state & refusedBy(end, promised)) != 0 || (me.cancelPending() && !me.committed && !promised);
            if (refused) {
                unlock();
            }
        } catch (Throwable t) {
            state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
            throw t;
        }
        return !refused;
    }

    /** The state flags that refuse an operation on {@code end}: a close stops writes that were not promised. */
    private int refusedBy(End end, boolean promised) {
        return end == out && !promised ? POISONED | CLOSED : POISONED;
    }

    /** What an operation that {@link #lockFor} refused throws. */
    private RuntimeException refusal(Fiber me, End end) {
        if ((state & refusedBy(end, false)) == 0) {
            return me.cancelledError();
        }
        return (state & POISONED) != 0 ? poisonedError() : closedError();
    }

    /**
     * What a committed operation ({@link Fiber#committed}: a {@code Select}'s chosen case) finds when another party
     * of a shared end took what the choice saw and nothing else is there, neither a partner nor a promise of one:
     * {@link In#read} returns it, {@link Out#write} leaves it in the writer's {@link Fiber#transfer}
     * ({@link #takenFrom}), and nothing was exchanged (invariant 7).
     */
    public static final Object TAKEN = new Object();

    /**
     * Whether the committed write that {@code me} just made found its reader or room taken ({@link #TAKEN}):
     * nothing was written. Clears the mark.
     */
    public static boolean takenFrom(Fiber me) {
        if (me.transfer != TAKEN) {
            return false;
        }
        me.transfer = null;
        return true;
    }

    // ---------------------------------------------------------------------------------- the ends

    /**
     * What both ends share: the channel's lock, as a guard sees it, and poison. Static, with the channel asked of
     * the end ({@link #channel()}), so that an end holds one reference to its channel, not two (one per level
     * of inner class): 8 bytes less per end.
     */
    public abstract static class End extends ChannelQueue implements AltGuard, Waitable {

        public void poison() {
            channel().end(true);
        }

        /**
         * Takes {@code f} out of this end's queue if it is still waiting there: true if it was (nothing was
         * exchanged; whoever withdrew it now owns its wake-up), false if a partner took it first, or if
         * {@code f}'s operation follows a select's choice ({@link Fiber#committed}): a partner that committed to
         * that choice comes for it, so it stays until then. The caller has checked the stack
         * ({@link Fiber#cancel()}, or the operation that queued {@code f}).
         */
        @Override
        public boolean withdraw(Fiber f) {
            ChannelImpl<?> c = channel();
            c.lock();
            boolean queued;
            try {
                queued = !f.committed && remove(f);
                if (queued) {
                    c.giveBackPromise(f); // a reader that waited for a promise (invariant 3)
                    f.transfer = null; // a writer's value goes nowhere
                }
                c.unlock();
            } catch (Throwable t) {
                c.state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
                throw t;
            }
            return queued;
        }

        @Override
        public void pausedInQueue() {
            channel().unlock();
        }

        @Override
        public void abandon(Fiber f) {
            channel().abandon(f);
        }

        @Override
        public void markUse(WorkerPool p) {
            channel().use(p);
        }

        /** Records a use by a party outside every scheduler (see {@link dev.weft.csp.spi.Extensions#usedFromOutside}). */
        void markOutsideUse() {
            ChannelImpl<?> c = channel();
            StackReserve.forOperation();
            c.lock();
            c.use(null);
            c.unlock();
        }

        @Override
        public boolean onlyUsedBy(WorkerPool pool, boolean creatorCounts) {
            ChannelImpl<?> c = channel();
            StackReserve.forOperation();
            c.lock();
            boolean only;
            try {
                only = Uses.onlyBy(c.users, (c.state & MADE_OUTSIDE) != 0, pool, creatorCounts);
                c.unlock();
            } catch (Throwable t) {
                c.state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
                throw t;
            }
            return only;
        }
    }

    /** The reading end. */
    public final class In extends End implements SharedAltingChannelInput<T> {
        @Override
        public ChannelImpl<T> channel() {
            return ChannelImpl.this;
        }

        @Override
        Object last() {
            return inLast;
        }

        @Override
        void last(Object waiter) {
            inLast = waiter;
        }

        @Override
        @Pausable
        @SuppressWarnings("unchecked")
        public T read() {
            if (Simulation.anyCreated()) {
                FiberPauses.simulationPoint();
            }
            Fiber me = Fiber.current();
            Selection.Registration promised = promiseOf(me, this);
            if (!lockFor(me, this, promised != null)) {
                throw refusal(me, this);
            }
            boolean locked = true; // false once released, or handed to the pause (see Faults above)
            try {
                // Its process is here now (if a writer took it, that writer waits). Still queued, it was claimed
                // by a writer's check, whose process may be on its way here (invariant 7).
                boolean claimed = promised != null && remove(promised);
                if (buffer != null && !buffer.isEmpty()) {
                    locked = false; // handed over: takeBuffered releases it, and frees it itself on a fault
                    return takeBuffered();
                }
                Object w = takeParty(out);
                if (w instanceof Fiber) {
                    Fiber f = (Fiber) w;
                    Object v = f.transfer;
                    f.transfer = null;
                    unlock();
                    locked = false;
                    f.wakeFromChannel();
                    return (T) v;
                }
                if (w == null && closed() && !in.hasFiberHoldingPromise()) { // the end (invariant 4)
                    unlock();
                    locked = false;
                    throw closedError();
                }
                if ((state & SHARED_READERS) == 0 && hasFiberOtherThan(me)) {
                    if (w != null) {
                        out.addFirst(w);
                    }
                    unlock();
                    locked = false;
                    throw new IllegalStateException("two processes read the single-reader input of a channel at"
                            + " once; use a one2any or any2any channel to share the input");
                }
                if (w == null && me.committed && !claimed && !closed()) { // nobody is bound to come (invariant 7)
                    unlock();
                    locked = false;
                    return (T) TAKEN;
                }
                me.transfer = w; // a writer's promise: its process will hand this reader its value (invariant 3)
                add(me);
                locked = waitLocked(me);
            } catch (Throwable t) {
                if (locked) {
                    state &= ~LOCKED;
                }
                throw t;
            }
            // Outside the try: `locked` must not be live across the pause (a saved boolean costs a long[]).
            FiberPauses.parkLocked(In.this);
            return received(me);
        }

        /**
         * Takes the first buffered value without pausing (null if none, or if the channel is poisoned): for a
         * release that must happen even in a cancelled fiber, as a connection's turn.
         */
        public T takeIfBuffered() {
            StackReserve.forOperation();
            lock();
            boolean empty;
            try {
                empty = poisoned() || buffer == null || buffer.isEmpty();
                if (empty) {
                    unlock();
                }
            } catch (Throwable t) {
                state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
                throw t;
            }
            return empty ? null : takeBuffered(); // as read() does: the freed room goes to a waiting writer (invariant 2)
        }

        /** Whether a reader waits on this end, or an alternative that waits has registered here. */
        boolean awaited() {
            StackReserve.forOperation();
            lock();
            boolean waiting;
            try {
                waiting = !isEmpty();
                unlock();
            } catch (Throwable t) {
                state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
                throw t;
            }
            return waiting;
        }

        /**
         * Takes the first buffered value; the room it frees goes to the first waiting writer. Called with the
         * lock held, which it releases (and frees itself on a fault, see Faults above).
         */
        @SuppressWarnings("unchecked")
        private T takeBuffered() {
            boolean locked = true;
            try {
                T v = buffer.take();
                Fiber w = out.pollFiber();
                Selection.Registration writing = null;
                if (w != null) {
                    buffer.put((T) w.transfer); // the freed room takes the first waiting writer's value (invariant 2)
                    w.transfer = null;
                } else {
                    writing = out.pollOpenRegistration(); // a select waiting to write: there is room now
                }
                // A select waiting to read, passed over while the buffer was taken by others: values remain.
                Selection.Registration reading = buffer.isEmpty() ? null : in.pollOpenRegistration();
                unlock();
                locked = false;
                if (w != null) {
                    w.wakeFromChannel();
                }
                wake(writing);
                wake(reading);
                return v;
            } catch (Throwable t) {
                if (locked) {
                    state &= ~LOCKED;
                }
                throw t;
            }
        }

        @Override
        public boolean pending() {
            WorkerPool user = Uses.callerPool();
            StackReserve.forOperation();
            lock();
            boolean p;
            try {
                use(user);
                p = !poisoned() && ((buffer != null && !buffer.isEmpty()) || out.hasFiberOrPromise());
                unlock();
            } catch (Throwable t) {
                state &= ~LOCKED; // unlock() is the last call: a failure left the lock held
                throw t;
            }
            return p;
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return (state & (POISONED | CLOSED)) != 0 || (buffer != null && !buffer.isEmpty())
                    || findPartner(out, me.selection, wake);
        }

        @Override
        public void register(Selection.Registration me) {
            add(me);
        }

        @Override
        public void unregister(Selection.Registration me) {
            if (me.promisedAt == null) {
                remove(me); // a promise stays for its process's read (invariant 6)
            }
        }

        @Override
        public String toString() {
            return "the input of " + ChannelImpl.this;
        }
    }

    /** The writing end. */
    public final class Out extends End implements SharedAltingChannelOutput<T> {
        @Override
        public ChannelImpl<T> channel() {
            return ChannelImpl.this;
        }

        @Override
        Object last() {
            return outLast;
        }

        @Override
        void last(Object waiter) {
            outLast = waiter;
        }

        @Override
        public void close() {
            end(false);
        }

        @Override
        @Pausable
        public void write(T value) {
            if (value == null) {
                throw new NullPointerException("cannot write null to a channel");
            }
            if (Simulation.anyCreated()) {
                FiberPauses.simulationPoint();
            }
            Fiber me = Fiber.current();
            Selection.Registration promised = promiseOf(me, this);
            if (!lockFor(me, this, promised != null)) {
                throw refusal(me, this);
            }
            boolean locked = true; // false once released, or handed to the pause (see Faults above)
            try {
                Fiber r = null;
                boolean queued = promised != null && remove(promised);
                if (promised != null && !queued) { // a reader took the promise and waits for this value
                    r = in.fiberHolding(promised);
                    if (r != null) {
                        in.remove(r);
                    }
                }
                if (r == null) {
                    r = in.pollFiber(); // a waiting reader first: the buffer is empty (invariant 1)
                }
                if (r != null) {
                    deliver(r, value, promised);
                    Object ended = promised != null ? readersAtTheEnd() : null; // the last promise after a close
                    unlock();
                    locked = false;
                    r.wakeFromChannel();
                    wakeWith(ended, CLOSED_END);
                    return;
                }
                if (buffer != null && buffer.hasSpace()) {
                    buffer.put(value);
                    Selection.Registration reading = in.pollOpenRegistration();
                    unlock();
                    locked = false;
                    wake(reading); // a select waiting to read finds the value in the buffer
                    return;
                }
                // A reader's promise, or a select claimed as one: it comes for this value.
                Object reader = buffer == null ? takePromise(in) : null;
                if ((state & SHARED_WRITERS) == 0 && hasFiberOtherThan(me)) {
                    unlock();
                    locked = false;
                    throw new IllegalStateException("two processes write the single-writer output of a channel at"
                            + " once; use an any2one or any2any channel to share the output");
                }
                if (reader == null && me.committed && !closed() && (!queued || promised.orphaned)) { // invariant 7
                    me.transfer = TAKEN; // a promise of this select's, if any, is withdrawn: nobody held it
                    unlock();
                    locked = false;
                    return;
                }
                me.transfer = value;
                add(me);
                locked = waitLocked(me);
            } catch (Throwable t) {
                if (locked) {
                    state &= ~LOCKED;
                }
                throw t;
            }
            FiberPauses.parkLocked(Out.this); // outside the try, as in read()
            received(me);
        }

        /**
         * Hands {@code value} to a waiting reader or puts it in the buffer, never waiting, from any thread; false
         * if the buffer is full or the channel poisoned or closed. Counts as a use from outside every scheduler.
         * It serves as {@link #write} does, less what only a write has: no promise (an offer follows no select),
         * no reader's promise to take (the channel is buffered), no wait. Kept apart from {@code write}, which
         * a shared routine with a mode would burden with those branches on its hot path.
         */
        boolean offer(T value) {
            if (value == null) {
                throw new NullPointerException("cannot write null to a channel");
            }
            if (buffer == null) {
                throw new IllegalArgumentException("offer needs a buffered channel: " + ChannelImpl.this);
            }
            StackReserve.forOperation();
            lock();
            Selection.Registration r;
            try {
                use(null);
                if ((state & (POISONED | CLOSED)) != 0) {
                    unlock();
                    return false;
                }
                Fiber f = in.pollFiber(); // a waiting reader first: then the buffer is empty (invariant 1)
                if (f != null) {
                    deliver(f, value, null);
                    unlock();
                    f.wakeFromChannel();
                    return true;
                }
                if (!buffer.hasSpace()) { // where write() would wait (invariant 2), an offer refuses
                    unlock();
                    return false;
                }
                buffer.put(value);
                r = in.pollOpenRegistration();
                unlock();
            } catch (Throwable t) {
                state &= ~LOCKED; // unlock() is the last call on each path: a failure left the lock held
                throw t;
            }
            wake(r); // a select waiting to read finds the value in the buffer
            return true;
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return (state & (POISONED | CLOSED)) != 0 || (buffer != null && buffer.hasSpace())
                    || findPartner(in, me.selection, wake);
        }

        @Override
        public void register(Selection.Registration me) {
            add(me);
        }

        @Override
        public void unregister(Selection.Registration me) {
            if (me.promisedAt == null) {
                remove(me); // a promise stays for its process's write (invariant 6)
            }
        }

        @Override
        public String toString() {
            return "the output of " + ChannelImpl.this;
        }
    }
}
