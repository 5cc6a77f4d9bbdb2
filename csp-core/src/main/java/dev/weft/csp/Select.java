package dev.weft.csp;

import dev.weft.csp.internal.ChannelImpl;
import dev.weft.csp.internal.FiberAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A choice between channel operations, in the style of Go's {@code select} statement and Kotlin's
 * {@code select} expression: add cases, then {@link #run()} waits until one can go, performs it and runs its
 * handler.
 *
 * <pre>{@code
 * new Select()
 *         .read(requests, r -> log(r))
 *         .write(results, next, () -> next = produce())
 *         .timeout(Duration.ofSeconds(1), () -> idle())
 *         .run();
 * }</pre>
 *
 * <p>A case's channel operation is part of the choice: once a case is chosen, its read or write is done by
 * {@code run()} itself, before the handler runs and whatever the handler then does, and a cancellation that
 * arrives in between waits for the next pause. So a partner that committed to this choice (another select,
 * an {@link Alternative}) is never left waiting, and a written value is never lost to a handler that throws.
 * A case's read or write is part of the choice, as Go's is: if another reader of a shared input takes the
 * value the choice saw, or another writer of a shared output the waiting reader or the buffer's room, before
 * this one can, nothing is done and the select chooses again among what is ready then, instead of waiting in
 * an operation that nobody may serve.
 *
 * <p>Among the cases ready at once, the choice is fair: a new {@code Select} per iteration, as a Go loop
 * writes it, rotates from a random case. {@link #onlyIf(boolean)} switches the case just added off for this
 * select (Go's nil channel); {@link #orElse} is a default case, run at once when no other case is ready.
 * A poisoned or closed channel counts as ready: its case's operation throws. A {@code Select} is used by
 * one process; it may be run again, each run choosing afresh among its cases.
 */
public final class Select {
    /** READY: a guard alone (a timeout, a deadline, any guard given to {@link #ready}), no operation. */
    private enum Kind { READ, WRITE, READY }

    /** One case: its guard, what to write (write cases), and its handler. */
    private static final class Case {
        final Kind kind;
        final Guard guard;
        final Object value;
        final Object handler; // ValueProcess (read), CSProcess (write, ready), or null (a write with none)
        boolean enabled = true;

        Case(Kind kind, Guard guard, Object value, Object handler) {
            this.kind = kind;
            this.guard = guard;
            this.value = value;
            this.handler = handler;
        }
    }

    private final List<Case> cases = new ArrayList<>(4);
    private CSProcess orElse;
    private int orElseIndex = -1;

    /** An empty select: add cases, then {@link #run()} it. */
    public Select() {
    }

    /**
     * A case that reads a value from {@code in} when one is there, then gives it to {@code handler}.
     *
     * @throws NullPointerException if an argument is null
     */
    public <T> Select read(AltingChannelInput<T> in, ValueProcess<? super T> handler) {
        return add(new Case(Kind.READ, Objects.requireNonNull(in, "in is null"), null,
                Objects.requireNonNull(handler, "handler is null")));
    }

    /**
     * A case that writes {@code value} to {@code out} when a reader waits or the buffer has room, then runs
     * {@code handler}.
     *
     * @throws NullPointerException if an argument is null
     */
    public <T> Select write(AltingChannelOutput<T> out, T value, CSProcess handler) {
        return add(new Case(Kind.WRITE, Objects.requireNonNull(out, "out is null"),
                Objects.requireNonNull(value, "cannot write null to a channel"),
                Objects.requireNonNull(handler, "handler is null")));
    }

    /**
     * A case that writes {@code value} to {@code out} when a reader waits or the buffer has room.
     *
     * @throws NullPointerException if an argument is null
     */
    public <T> Select write(AltingChannelOutput<T> out, T value) {
        return add(new Case(Kind.WRITE, Objects.requireNonNull(out, "out is null"),
                Objects.requireNonNull(value, "cannot write null to a channel"), null));
    }

    /**
     * A case chosen when {@code d} has passed since the select began and no other case went first. Zero or
     * negative durations are ready at once; huge ones never.
     *
     * @throws NullPointerException if an argument is null
     */
    public Select timeout(Duration d, CSProcess handler) {
        return add(new Case(Kind.READY, Guards.timeout(Objects.requireNonNull(d, "duration is null")), null,
                Objects.requireNonNull(handler, "handler is null")));
    }

    /**
     * A case chosen when {@link System#nanoTime()} reaches {@code nanoTime} and no other case went first.
     *
     * @throws NullPointerException if {@code handler} is null
     */
    public Select deadline(long nanoTime, CSProcess handler) {
        return add(new Case(Kind.READY, Guards.deadline(nanoTime), null,
                Objects.requireNonNull(handler, "handler is null")));
    }

    /**
     * A case chosen when {@code guard} is ready: any guard an {@link Alternative} takes (a socket's
     * {@code readable()}, a channel end, a connection server, a timeout). The select performs no operation on
     * it: {@code handler} does what the guard was ready for (a read that then does not wait, an accept).
     *
     * @throws NullPointerException if an argument is null
     */
    public Select ready(Guard guard, CSProcess handler) {
        return add(new Case(Kind.READY, Objects.requireNonNull(guard, "guard is null"), null,
                Objects.requireNonNull(handler, "handler is null")));
    }

    /**
     * The default case: run at once, instead of waiting, when no other case is ready.
     *
     * @throws NullPointerException if {@code handler} is null
     * @throws IllegalStateException if this select has a default case already
     */
    public Select orElse(CSProcess handler) {
        Objects.requireNonNull(handler, "handler is null");
        if (orElse != null) {
            throw new IllegalStateException("a Select has one default case at most");
        }
        orElse = handler;
        orElseIndex = cases.size();
        cases.add(null); // keeps the numbering of cases in the order they were added
        return this;
    }

    /**
     * Takes the case added last out of this select unless {@code enabled}: a precondition, as Go programs
     * write with a nil channel.
     *
     * @throws IllegalStateException if no case was added yet, or the last one added was the
     *         default
     */
    public Select onlyIf(boolean enabled) {
        Case last = cases.isEmpty() ? null : cases.get(cases.size() - 1);
        if (last == null) {
            throw new IllegalStateException("onlyIf follows the case it applies to (read, write, ready, timeout, deadline)");
        }
        last.enabled = enabled;
        return this;
    }

    private Select add(Case c) {
        cases.add(c);
        return this;
    }

    /**
     * Waits until one of the enabled cases can go (or, with a default case, only looks), performs its read or
     * write, runs its handler, and returns the case's number: cases are numbered from 0 in the order they
     * were added, the default case included.
     *
     * @throws IllegalStateException if no case is enabled and there is no default case
     * @throws IllegalArgumentException if a guard given to {@link #ready} is not a Weft guard
     * @throws PoisonException if the chosen case's channel is poisoned (or {@link ChannelClosedException}, closed)
     * @throws CancelledException if the process is cancelled before a case is chosen
     */
    @Pausable
    public int run() {
        List<Guard> guards = new ArrayList<>(cases.size());
        int[] numbers = new int[cases.size()];
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            if (c != null && c.enabled) {
                numbers[guards.size()] = i;
                guards.add(c.guard);
            }
        }
        if (guards.isEmpty()) {
            if (orElse == null) {
                throw new IllegalStateException("every case of the Select is disabled, and it has no default case");
            }
            orElse.run();
            return orElseIndex;
        }
        Alternative alt = new Alternative(guards.toArray(new Guard[0]));
        while (true) {
            int g;
            if (orElse != null) {
                g = alt.fairSelectNow();
                if (g < 0) {
                    orElse.run();
                    return orElseIndex;
                }
            } else {
                g = alt.select();
            }
            int number = numbers[g];
            if (perform(cases.get(number))) {
                return number;
            }
            // Another party of a shared end took what the choice saw: nothing was done, choose again.
        }
    }

    /**
     * The chosen case: its operation, committed, then its handler; false, with nothing done, if another party
     * of a shared end took what the choice saw (the value to read, the reader or the room to write to).
     */
    @Pausable
    @SuppressWarnings("unchecked")
    private static boolean perform(Case c) {
        if (c.kind == Kind.READ) {
            Object v = committed((AltingChannelInput<Object>) c.guard);
            if (v == ChannelImpl.TAKEN) {
                return false;
            }
            ((ValueProcess<Object>) c.handler).run(v);
            return true;
        }
        if (c.kind == Kind.WRITE && !committed((AltingChannelOutput<Object>) c.guard, c.value)) {
            return false;
        }
        if (c.handler != null) {
            ((CSProcess) c.handler).run();
        }
        return true;
    }

    /**
     * Reads after the choice: a cancellation does not refuse it, since a writer may count on it. From a channel
     * of Weft's, {@link ChannelImpl#TAKEN} if another reader took what the choice saw and no writer is bound to
     * come (the channel's invariant 7).
     */
    @Pausable
    private static Object committed(AltingChannelInput<Object> in) {
        Fiber me = Fiber.current();
        FiberAccess.committed(me, true);
        try {
            return in.read();
        } finally {
            FiberAccess.committed(me, false);
        }
    }

    /**
     * Writes after the choice: a cancellation does not refuse it, since a reader may count on it. False, with
     * nothing written, if on a channel of Weft's another writer took the reader or the room the choice saw and no
     * reader is bound to come (the channel's invariant 7).
     */
    @Pausable
    private static boolean committed(AltingChannelOutput<Object> out, Object value) {
        Fiber me = Fiber.current();
        FiberAccess.committed(me, true);
        try {
            out.write(value);
        } finally {
            FiberAccess.committed(me, false);
        }
        return !ChannelImpl.takenFrom(me);
    }
}
