package dev.weft.csp;

import dev.weft.csp.internal.AltGuard;
import dev.weft.csp.internal.ChannelImpl;
import dev.weft.csp.internal.Deadlines;
import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberPauses;
import dev.weft.csp.internal.Selection;
import dev.weft.csp.internal.ThreadMode;
import dev.weft.csp.internal.TimeGuard;
import dev.weft.csp.internal.Uses;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.StackReserve;
import dev.weft.csp.runtime.TimerEntry;
import dev.weft.csp.runtime.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Waits for one of several guards to become ready: channel inputs (a value is waiting), channel outputs
 * (a reader is waiting, or the buffer has room), {@link Guards#skip()}, timeouts and deadlines. After
 * {@code select} returns {@code i}, the operation on guard {@code i} (read, write, accept) goes through
 * without waiting for another party to arrive. An input guard and an output guard on the two ends of
 * one channel, held by two alternatives at once, find each other. A poisoned channel end counts as ready;
 * the operation that follows its selection throws {@link PoisonException}.
 *
 * <p>An alternative is used by one process at a time.
 *
 * <p>Faults: as in a channel operation (see {@code ChannelImpl}), each lock taken checks the stack first, and
 * anything thrown while locks are held frees them in a handler of the select's own frame, with plain writes.
 */
public final class Alternative {
    private final Guard[] guards;
    private final AltGuard[] alt;
    private final ChannelImpl<?>[] locks; // the distinct channels whose locks guard the guards, in lock order
    /** How many of {@link #locks} (a prefix) the running select holds: what a failure handler frees. */
    private int held;
    /** Where {@link #fairSelect()} starts looking: past the last one chosen. */
    private int favourite;
    /**
     * Whether no fair choice has been made yet: the first one looks at the guards in a random order, so that a
     * fresh alternative per choice (the natural translation of Go's {@code select}) picks uniformly among the
     * ready guards, as Go does. (A random start alone would favour a ready guard placed after guards that are
     * not ready: with {@code (never, never, a, b)} it would pick {@code a} three times in four.)
     */
    private boolean fresh;

    /**
     * An alternative over {@code guards}: channel ends from {@link Channel}, {@link Guards}, connection
     * servers.
     *
     * @throws IllegalArgumentException if there is no guard, or one is null or not a Weft guard
     */
    public Alternative(Guard... guards) {
        if (guards == null || guards.length == 0) {
            throw new IllegalArgumentException("an Alternative needs at least one guard");
        }
        this.guards = guards.clone();
        this.alt = new AltGuard[guards.length];
        for (int i = 0; i < guards.length; i++) {
            if (guards[i] == null) {
                throw new IllegalArgumentException("guard " + i + " is null");
            }
            Guard g = guards[i];
            for (int hops = 0; g instanceof ForwardingGuard && hops < 8; hops++) {
                g = ((ForwardingGuard) g).guard();
            }
            if (g instanceof Readiness) {
                g = ((Readiness) g).guard;
            }
            if (!(g instanceof AltGuard)) {
                throw new IllegalArgumentException("guard " + i + " (" + guards[i].getClass().getName()
                        + ") is not a guard made by Weft (a channel end, a connection server, Guards, a"
                        + " Readiness, or a ForwardingGuard to one)");
            }
            alt[i] = (AltGuard) g;
        }
        List<ChannelImpl<?>> distinct = new ArrayList<>();
        for (AltGuard g : alt) {
            if (g.channel() != null && !distinct.contains(g.channel())) {
                distinct.add(g.channel());
            }
        }
        distinct.sort(ChannelImpl::lockOrder);
        locks = distinct.toArray(new ChannelImpl<?>[0]);
        Simulation s = simulation();
        if (s != null) {
            favourite = s.choose(guards.length); // the simulation draws once per alternative, as it always has
        } else {
            fresh = true;
        }
    }

    /** The simulation of a simulated calling fiber, else null. */
    private static Simulation simulation() {
        if (Simulation.anyCreated()) {
            WorkerPool pool = Uses.callerPool();
            return pool == null ? null : pool.simulation();
        }
        return null;
    }

    /** The order of a first fair choice: random (see {@link #fresh}); null (rotation from the start) after it. */
    private int[] firstOrder() {
        if (!fresh) {
            return null;
        }
        int[] order = new int[alt.length];
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < order.length; i++) { // Fisher-Yates, "inside-out"
            int j = r.nextInt(i + 1);
            order[i] = order[j];
            order[j] = i;
        }
        return order;
    }

    /** Waits for some ready guard and returns its index; fair over repeated calls. */
    @Pausable
    public int select() {
        return fairSelect();
    }

    /** Waits for a ready guard; among several ready, the lowest index wins. */
    @Pausable
    public int priSelect() {
        return choose(null, 0, null);
    }

    /** Waits for a ready guard; priority rotates past the last one chosen, so none starves. */
    @Pausable
    public int fairSelect() {
        int i = choose(null, favourite, firstOrder());
        chose(i);
        return i;
    }

    /** After a fair choice of {@code i}: the next starts past it. */
    private void chose(int i) {
        favourite = (i + 1) % guards.length;
        fresh = false;
    }

    /** As {@link #select()}, with guard {@code i} taking part only if {@code pre[i]} is true. */
    @Pausable
    public int select(boolean... pre) {
        checkPreconditions(pre);
        int i = choose(pre, favourite, firstOrder());
        chose(i);
        return i;
    }

    /** As {@link #priSelect()}, with guard {@code i} taking part only if {@code pre[i]} is true. */
    @Pausable
    public int priSelect(boolean... pre) {
        checkPreconditions(pre);
        return choose(pre, 0, null);
    }

    /** The lowest-index ready guard (a poisoned one counts), or -1 if none is ready; never waits. */
    public int selectNow() {
        return poll(0, null);
    }

    /** As {@link #selectNow()} with the rotating priority of {@link #fairSelect()}: for a select's default case. */
    int fairSelectNow() {
        int i = poll(favourite, firstOrder());
        if (i >= 0) {
            chose(i);
        }
        return i;
    }

    /**
     * The first ready guard from {@code start} on, round the guards (or in {@code order} if it is not null), or
     * -1; never waits.
     */
    private int poll(int start, int[] order) {
        Selection sel = new Selection(null);
        List<Fiber> wake = new ArrayList<>(1);
        int chosen = -1;
        WorkerPool user = Uses.callerPool();
        long now = user == null ? System.nanoTime() : user.nanoTime();
        StackReserve.forOperation();
        try {
            lockAll();
            for (AltGuard g : alt) {
                g.markUse(user);
            }
            for (int k = 0; k < alt.length && chosen < 0; k++) {
                int i = order == null ? (start + k) % alt.length : order[k];
                if (isReady(i, new Selection.Registration(sel, i), wake, now, now)) {
                    chosen = i;
                }
            }
            unlockAll();
        } catch (Throwable t) {
            while (held > 0) { // plain writes, no call: this cannot overflow the stack
                locks[--held].state &= ~ChannelImpl.LOCKED;
            }
            throw t;
        }
        wakeAll(wake);
        return chosen;
    }

    private void checkPreconditions(boolean[] pre) {
        if (pre == null || pre.length != guards.length) {
            throw new IllegalArgumentException("expected " + guards.length + " preconditions, one per guard, got "
                    + (pre == null ? "null" : String.valueOf(pre.length)));
        }
    }

    private boolean isReady(int i, Selection.Registration reg, List<Fiber> wake, long start, long now) {
        if (alt[i] instanceof TimeGuard) {
            return Deadlines.passed(((TimeGuard) alt[i]).deadline(start), now);
        }
        return alt[i].ready(reg, wake);
    }

    /**
     * The select: check every guard under all locks, from {@code start} round (or in {@code order} if it is not
     * null); if none is ready, register with all, in the same order, and wait.
     */
    @Pausable
    private int choose(boolean[] pre, int start, int[] order) {
        int n = alt.length;
        boolean any = false;
        for (int i = 0; i < n; i++) {
            any |= pre == null || pre[i];
        }
        if (!any) {
            throw new IllegalStateException("every guard of the Alternative is disabled by its precondition");
        }
        Fiber me = Fiber.current();
        // the last select's promise, not kept: see ChannelImpl
        if (FiberAccess.transfer(me) instanceof Selection.Registration) {
            Selection.Registration stale = (Selection.Registration) FiberAccess.transfer(me);
            FiberAccess.transfer(me, null);
            ChannelImpl.breakPromise(stale);
        }
        WorkerPool user = FiberAccess.isThreadBound(me) ? null : FiberAccess.pool(me);
        Simulation simulation = user == null ? null : user.simulation();
        if (simulation != null) {
            FiberPauses.simulationPoint();
        }
        Selection sel = new Selection(me);
        Selection.Registration[] regs = new Selection.Registration[n];
        List<Fiber> wake = new ArrayList<>(1);
        long deadline = Deadlines.NEVER;
        int timer = -1;
        int chosen = -1;
        long began = simulation == null ? System.nanoTime() : simulation.nanoTime();
        boolean cancelled = false;
        StackReserve.forOperation(); // covers the unregistering after the wait too
        try {
            lockAll();
            if (FiberAccess.cancelPending(me)) {
                cancelled = true;
            } else {
                for (int i = 0; i < n; i++) {
                    if (pre == null || pre[i]) {
                        alt[i].markUse(user);
                    }
                }
                for (int k = 0; k < n && chosen < 0; k++) {
                    int i = order == null ? (start + k) % n : order[k];
                    if (pre != null && !pre[i]) {
                        continue;
                    }
                    regs[i] = new Selection.Registration(sel, i);
                    if (isReady(i, regs[i], wake, began, began)) {
                        chosen = i;
                        sel.claim(i);
                    } else if (alt[i] instanceof TimeGuard) {
                        long d = ((TimeGuard) alt[i]).deadline(began);
                        if (d != deadline && Deadlines.earlier(d, deadline) == d) { // deadline starts at NEVER
                            timer = i;
                            deadline = d;
                        }
                    }
                }
                if (chosen < 0) {
                    // From the same rotating start as the check: the guard favoured here is the one a partner
                    // finds first.
                    for (int k = 0; k < n; k++) {
                        int i = order == null ? (start + k) % n : order[k];
                        if (regs[i] != null) {
                            alt[i].register(regs[i]);
                        }
                    }
                }
            }
            unlockAll();
        } catch (Throwable t) {
            while (held > 0) { // plain writes, no call: this cannot overflow the stack
                locks[--held].state &= ~ChannelImpl.LOCKED;
            }
            throw t;
        }
        if (cancelled) {
            throw FiberAccess.cancelledError(me);
        }
        wakeAll(wake);
        if (chosen >= 0) {
            return chosen;
        }
        sel.waitOn(alt, regs, timer >= 0);
        try {
            awaitClaim(me, sel, timer, deadline);
        } finally {
            unregister(regs);
        }
        int selected = sel.selected();
        if (selected == Selection.CANCELLED) {
            throw FiberAccess.cancelledError(me);
        }
        if (selected >= 0 && regs[selected].promisedAt != null) {
            // A partner claimed this choice as a promise (ChannelImpl's invariants): the operation that follows
            // finds it here and keeps it.
            FiberAccess.transfer(me, regs[selected]);
        }
        return selected;
    }

    /**
     * Pauses until a partner, the earliest timer, or a cancellation claims the selection. The timer leaves its
     * heap as the select ends, whoever won: a select that a partner ends retains nothing.
     */
    @Pausable
    private static void awaitClaim(Fiber me, Selection sel, int timer, long deadline) {
        if (FiberAccess.isThreadBound(me)) {
            awaitClaimOnThread(me, sel, timer, timer >= 0 ? deadline : Deadlines.NEVER);
            return;
        }
        TimerEntry entry = null;
        if (timer >= 0) {
            int t = timer;
            entry = FiberAccess.pool(me).wakeAt(deadline, () -> {
                if (sel.claim(t)) {
                    me.unpark();
                }
            });
        }
        try {
            while (sel.selected() == Selection.NONE) {
                FiberPauses.waitOn(sel);
                if (sel.selected() == Selection.NONE && FiberAccess.cancelPending(me)) {
                    sel.claim(Selection.CANCELLED);
                }
            }
        } finally {
            if (entry != null) {
                entry.cancel();
            }
        }
    }

    /**
     * The same on a plain thread, where every wake-up is a permit that must be taken exactly once: a partner
     * that claims the selection gives one; a timeout or an interrupt claims it without one.
     */
    private static void awaitClaimOnThread(Fiber me, Selection sel, int timer, long deadline) {
        for (;;) {
            if (ThreadMode.blockUntil(me, deadline)) {
                if (sel.selected() != Selection.NONE) {
                    return; // the claiming partner's wake-up
                }
                continue; // a stray unpark()
            }
            if (!sel.claim(FiberAccess.cancelPending(me) ? Selection.CANCELLED : timer)) {
                ThreadMode.awaitPermit(me); // a partner claimed it just now: take its wake-up
            }
            return;
        }
    }

    private void unregister(Selection.Registration[] regs) {
        try {
            lockAll();
            for (int i = 0; i < alt.length; i++) {
                if (regs[i] != null) {
                    alt[i].unregister(regs[i]);
                }
            }
            unlockAll();
        } catch (Throwable t) {
            while (held > 0) { // plain writes, no call: this cannot overflow the stack
                locks[--held].state &= ~ChannelImpl.LOCKED;
            }
            throw t;
        }
    }

    /** Takes every lock; {@link #held} counts each one once it is taken. */
    private void lockAll() {
        for (ChannelImpl<?> c : locks) {
            c.lock();
            held++;
        }
    }

    /** Releases every lock, the last taken first; {@link #held} counts each one down once it is released. */
    private void unlockAll() {
        while (held > 0) {
            locks[held - 1].unlock();
            held--;
        }
    }

    private static void wakeAll(List<Fiber> fibers) {
        for (Fiber f : fibers) {
            FiberAccess.unparkReserved(f);
        }
    }
}
