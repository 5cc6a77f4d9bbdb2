package dev.weft.csp.internal;

import dev.weft.csp.Alternative;
import dev.weft.csp.Fiber;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One blocking select of an {@link Alternative}: the fiber that waits and the guard chosen for it. The
 * first party to claim the selection (a channel partner, a timer) with one compare-and-set wins, and only
 * it wakes the fiber, so every pause is matched by exactly one wake-up.
 */
public final class Selection implements Waitable {
    private static final VarHandle SELECTED;

    static {
        try {
            SELECTED = MethodHandles.lookup().findVarHandle(Selection.class, "selected", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@link #selected()} while nothing is chosen. */
    public static final int NONE = -1;
    /** {@link #selected()} of a select whose fiber was cancelled (or thread interrupted) while it waited. */
    public static final int CANCELLED = -2;

    public final Fiber fiber;
    private volatile int selected = NONE;
    // What a blocked select waits on (set by its fiber before it pauses), for dumps and the deadlock check.
    private AltGuard[] guards;
    private Registration[] regs;
    private boolean timed;

    public Selection(Fiber fiber) {
        this.fiber = fiber;
    }

    /** Chooses guard {@code index} if nothing was chosen yet. */
    public boolean claim(int index) {
        return SELECTED.compareAndSet(this, NONE, index);
    }

    public int selected() {
        return selected;
    }

    /** Records the guards the select waits on ({@code regs[i]} null: guard i disabled) before it pauses. */
    public void waitOn(AltGuard[] guards, Registration[] regs, boolean timed) {
        this.guards = guards;
        this.regs = regs;
        this.timed = timed;
    }

    @Override
    public boolean onlyUsedBy(dev.weft.csp.runtime.WorkerPool pool, boolean creatorCounts) {
        return !timed && guardsOnlyUsedBy(pool, creatorCounts);
    }

    /** Whether only fibers of {@code pool} use the guards waited on, leaving out the timeout of a timed select. */
    boolean guardsOnlyUsedBy(dev.weft.csp.runtime.WorkerPool pool, boolean creatorCounts) {
        if (guards == null) {
            return false;
        }
        for (int i = 0; i < guards.length; i++) {
            boolean timeout = timed && guards[i] instanceof TimeGuard;
            if (regs[i] != null && !timeout
                    && !(guards[i] instanceof Waitable && ((Waitable) guards[i]).onlyUsedBy(pool, creatorCounts))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        if (guards == null) {
            return "an Alternative";
        }
        StringBuilder b = new StringBuilder("an Alternative over [");
        String sep = "";
        for (int i = 0; i < guards.length; i++) {
            if (regs[i] != null) {
                b.append(sep).append(guards[i]);
                sep = ", ";
            }
        }
        return b.append(timed ? "] with a timeout" : "]").toString();
    }

    /** A registration of this selection on one guard, as a channel queues it. */
    public static final class Registration {
        public final Selection selection;
        public final int index;
        /** The next waiter in the channel queue this registration is in ({@link WaitQueue}). */
        Object nextWaiter;
        /**
         * The channel end where a partner claimed this registration by checking its guard (another select's
         * check, or an operation that then waits for this one): from then on it is a <em>promise</em>, the
         * select's process committed to do this end's operation, and it stays in that end's queue (or with the
         * reader that waits for it) until the process comes. Null while it is not a promise. Under the
         * channel's lock; see {@code ChannelImpl}'s invariants.
         */
        public ChannelImpl.End promisedAt;
        /**
         * A writer's promise that a reader gave back to the output's queue, having been served by another writer
         * or withdrawn, with no other reader to take it: no process counts on it until a reader takes it or a
         * select's check finds it. Its select's write may then choose again ({@code ChannelImpl}'s invariant 7).
         * Under the channel's lock.
         */
        boolean orphaned;

        public Registration(Selection selection, int index) {
            this.selection = selection;
            this.index = index;
        }
    }
}
