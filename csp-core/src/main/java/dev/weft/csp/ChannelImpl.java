package dev.weft.csp;

import dev.weft.csp.runtime.WorkerPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every kind of channel: synchronous or buffered, single or shared ends. State changes under a small spin
 * lock (one compare-and-set to take it, a plain release store to leave it). Waiting readers and writers
 * queue in arrival order; a waiting writer's value rides in its fiber. The second party of an exchange
 * completes it and wakes the first.
 *
 * <p>A fiber that must wait queues itself and keeps the lock while it unwinds; the lock is released once the
 * fiber is fully paused ({@link Fiber#parkLocked}). The party that later takes it from the queue therefore
 * owns its wake-up outright: an uncontended rendezvous costs each side one compare-and-set, the lock's.
 *
 * <p>Alternatives register on a channel end like waiting parties; the party that finds a registration
 * claims the alternative (commits it to this channel) before counting it as a partner.
 */
final class ChannelImpl<T> implements One2OneChannel<T>, Any2OneChannel<T>, One2AnyChannel<T>,
        Any2AnyChannel<T> {
    private static final Object POISON = new Object();
    private static final AtomicLong IDS = new AtomicLong();
    // The state word: the lock bit and the flags, so that a channel stays small (see Performance in DESIGN.md).
    private static final int LOCKED = 1, POISONED = 2, SHARED_READERS = 4, SHARED_WRITERS = 8;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ChannelImpl.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id = IDS.incrementAndGet();
    private final ChannelBuffer<T> buffer; // null: synchronous
    private final In in = new In();
    private final Out out = new Out();
    /** {@link #LOCKED}, {@link #POISONED} (changed under the lock), and the fixed sharing flags. */
    private volatile int state;
    /** Who has used the channel, under the lock; see {@link Uses}. */
    private Object users = Uses.creator();

    ChannelImpl(ChannelBuffer<T> buffer, boolean sharedReaders, boolean sharedWriters) {
        ChannelBuffer<T> b = buffer == null ? null : buffer.claim();
        this.buffer = b == null || b.isSynchronous() ? null : b;
        this.state = (sharedReaders ? SHARED_READERS : 0) | (sharedWriters ? SHARED_WRITERS : 0);
    }

    @Override
    public In in() {
        return in;
    }

    @Override
    public Out out() {
        return out;
    }

    @Override
    public String toString() {
        return "channel #" + id;
    }

    // ------------------------------------------------------------------------------------ locking

    private void lock() {
        int s = state;
        if ((s & LOCKED) != 0 || !STATE.compareAndSet(this, s, s | LOCKED)) {
            lockSlowly();
        }
    }

    private void lockSlowly() {
        for (int spins = 0; ; spins++) {
            int s = state;
            if ((s & LOCKED) == 0 && STATE.compareAndSet(this, s, s | LOCKED)) {
                return;
            }
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // the holder was descheduled in its few instructions
            }
        }
    }

    void unlock() {
        STATE.setRelease(this, state & ~LOCKED); // nobody else writes the word while it is locked
    }

    /** Whether the channel is poisoned; under the lock. */
    private boolean poisoned() {
        return (state & POISONED) != 0;
    }

    /** A fiber queued here failed before its {@link Fiber#parkLocked} completed: it leaves, the lock is freed. */
    void abandon(Fiber f) {
        in.remove(f);
        out.remove(f);
        f.transfer = null;
        unlock();
    }

    /** Records a use by a party of pool {@code p} (null: a plain thread). Under the lock. */
    private void use(WorkerPool p) {
        if (p != users && users != null) {
            users = null; // a plain thread, or a second pool: for good
        }
    }

    // ------------------------------------------------------------------------------ queue helpers

    /** Takes the first live party from {@code q}: a waiting fiber, or an alternative it manages to claim. */
    private static Object takeParty(WaitQueue q) {
        for (;;) {
            Object p = q.poll();
            if (p == null || p instanceof Fiber) {
                return p;
            }
            Selection.Registration r = (Selection.Registration) p;
            if (r.selection.claim(r.index)) {
                return r;
            }
            // a registration of an alternative that chose another guard: dropped
        }
    }

    /** As {@link #takeParty}, skipping registrations of {@code self} (one alternative on both ends). */
    private static boolean claimPartner(WaitQueue q, Selection self, List<Fiber> wake) {
        for (;;) {
            Object p = q.peek();
            if (p == null) {
                return false;
            }
            if (p instanceof Fiber) {
                return true; // a committed party: the fiber waits for this end's next operation
            }
            Selection.Registration r = (Selection.Registration) p;
            if (r.selection == self) {
                return false;
            }
            q.poll();
            if (r.selection.claim(r.index)) {
                wake.add(r.selection.fiber);
                return true;
            }
        }
    }

    private static void wakeClaimed(Object party) {
        if (party instanceof Selection.Registration) {
            ((Selection.Registration) party).selection.fiber.unpark();
        }
    }

    private static PoisonException poisonedError() {
        return new PoisonException("the channel is poisoned");
    }

    private void poisonChannel() {
        Object[] r;
        Object[] w;
        WorkerPool p = Uses.callerPool();
        lock();
        use(p);
        if (poisoned()) {
            unlock();
            return;
        }
        state |= POISONED;
        if (buffer != null) {
            buffer.clear();
        }
        r = in.drain();
        w = out.drain();
        unlock();
        wakePoisoned(r);
        wakePoisoned(w);
    }

    private static void wakePoisoned(Object[] parties) {
        for (Object p : parties) {
            if (p instanceof Fiber) {
                Fiber f = (Fiber) p;
                f.transfer = POISON;
                f.wakeFromChannel();
            } else {
                Selection.Registration r = (Selection.Registration) p;
                if (r.selection.claim(r.index)) {
                    r.selection.fiber.unpark(); // a poisoned guard counts as ready
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T received(Fiber me) {
        Object v = me.transfer;
        me.transfer = null;
        if (v == POISON) {
            throw poisonedError();
        }
        if (v == Fiber.WITHDRAWN) {
            throw me.cancelledError();
        }
        return (T) v;
    }

    /** Takes the lock for an operation of {@code me} on {@code end}; throws if {@code me} is cancelled. */
    private void lockFor(Fiber me, End end) {
        me.willWaitOn(end); // before the lock: see Fiber.cancel
        lock();
        use(me.pool());
        if (me.cancelPending()) {
            unlock();
            throw me.cancelledError();
        }
    }

    // ---------------------------------------------------------------------------------- the ends

    /** What both ends share: the channel's lock, as a guard sees it, and poison. */
    abstract class End extends WaitQueue implements AltGuard, Waitable {
        public void poison() {
            poisonChannel();
        }

        /**
         * Takes {@code f} out of this end's queue if it is still waiting there: true if it was (nothing was
         * exchanged; whoever withdrew it now owns its wake-up), false if a partner took it first.
         */
        boolean withdraw(Fiber f) {
            ChannelImpl.this.lock();
            boolean queued = remove(f);
            if (queued) {
                f.transfer = null; // a writer's value goes nowhere
            }
            ChannelImpl.this.unlock();
            return queued;
        }

        @Override
        public void markUse(WorkerPool p) {
            use(p);
        }

        @Override
        public boolean onlyUsedBy(WorkerPool pool) {
            ChannelImpl.this.lock();
            try {
                return Uses.onlyBy(users, pool);
            } finally {
                ChannelImpl.this.unlock();
            }
        }

        @Override
        public long lockOrder() {
            return id;
        }

        @Override
        public void lock() {
            ChannelImpl.this.lock();
        }

        @Override
        public void unlock() {
            ChannelImpl.this.unlock();
        }
    }

    /** The reading end. */
    final class In extends End implements AltingChannelInput<T>, SharedChannelInput<T> {
        @Override
        @Pausable
        @SuppressWarnings("unchecked")
        public T read() {
            Fiber me = Fiber.current();
            lockFor(me, this);
            if (poisoned()) {
                unlock();
                throw poisonedError();
            }
            if (buffer != null && !buffer.isEmpty()) {
                return takeBuffered();
            }
            Object w = takeParty(out);
            if (w instanceof Fiber) {
                Fiber f = (Fiber) w;
                Object v = f.transfer;
                f.transfer = null;
                unlock();
                f.wakeFromChannel();
                return (T) v;
            }
            if ((state & SHARED_READERS) == 0 && hasFiberOtherThan(me)) {
                unlock();
                throw new IllegalStateException("two processes read the single-reader input of a channel at"
                        + " once; use a one2any or any2any channel to share the input");
            }
            add(me);
            wakeClaimed(w); // a claimed alternative will write to this reader
            Fiber.parkLocked(ChannelImpl.this, In.this);
            return received(me);
        }

        /**
         * Takes the first buffered value without pausing (null if none, or if the channel is poisoned): for a
         * release that must happen even in a cancelled fiber, as a connection's turn.
         */
        T takeIfBuffered() {
            lock();
            if (poisoned() || buffer == null || buffer.isEmpty()) {
                unlock();
                return null;
            }
            return takeBuffered();
        }

        /** Takes the first buffered value; the room it frees goes to the first waiting writer. Unlocks. */
        @SuppressWarnings("unchecked")
        private T takeBuffered() {
            T v = buffer.take();
            Object w = takeParty(out);
            if (w instanceof Fiber) {
                Fiber f = (Fiber) w;
                buffer.put((T) f.transfer);
                f.transfer = null;
                unlock();
                f.wakeFromChannel();
            } else {
                unlock();
                wakeClaimed(w); // an alternative waiting to write: there is room now
            }
            return v;
        }

        @Override
        public boolean pending() {
            WorkerPool user = Uses.callerPool();
            lock();
            use(user);
            boolean p = !poisoned() && ((buffer != null && !buffer.isEmpty()) || out.peek() instanceof Fiber);
            unlock();
            return p;
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return poisoned() || (buffer != null && !buffer.isEmpty()) || claimPartner(out, me.selection, wake);
        }

        @Override
        public void register(Selection.Registration me) {
            add(me);
        }

        @Override
        public void unregister(Selection.Registration me) {
            remove(me);
        }

        @Override
        public String toString() {
            return "the input of " + ChannelImpl.this;
        }
    }

    /** The writing end. */
    final class Out extends End implements AltingChannelOutput<T>, SharedChannelOutput<T> {
        @Override
        @Pausable
        public void write(T value) {
            if (value == null) {
                throw new NullPointerException("cannot write null to a channel");
            }
            Fiber me = Fiber.current();
            lockFor(me, this);
            if (poisoned()) {
                unlock();
                throw poisonedError();
            }
            Object r = takeParty(in);
            if (r instanceof Fiber) {
                Fiber f = (Fiber) r;
                f.transfer = value;
                unlock();
                f.wakeFromChannel();
                return;
            }
            if (buffer != null && buffer.hasSpace()) {
                buffer.put(value);
                unlock();
                wakeClaimed(r); // an alternative waiting to read finds the value in the buffer
                return;
            }
            if ((state & SHARED_WRITERS) == 0 && hasFiberOtherThan(me)) {
                unlock();
                throw new IllegalStateException("two processes write the single-writer output of a channel at"
                        + " once; use an any2one or any2any channel to share the output");
            }
            me.transfer = value;
            add(me);
            wakeClaimed(r); // a claimed alternative will read this value
            Fiber.parkLocked(ChannelImpl.this, Out.this);
            received(me);
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return poisoned() || (buffer != null && buffer.hasSpace()) || claimPartner(in, me.selection, wake);
        }

        @Override
        public void register(Selection.Registration me) {
            add(me);
        }

        @Override
        public void unregister(Selection.Registration me) {
            remove(me);
        }

        @Override
        public String toString() {
            return "the output of " + ChannelImpl.this;
        }
    }
}
