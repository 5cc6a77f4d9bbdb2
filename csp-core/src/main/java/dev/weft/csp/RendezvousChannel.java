package dev.weft.csp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A synchronous one-to-one channel in one word: the slot holds nothing, the party waiting for its partner
 * (a writer's value rides in its fiber), or poison. The second party completes the exchange with one
 * compare-and-set and wakes the first.
 */
final class RendezvousChannel<T> implements One2OneChannel<T>, AltingChannelInput<T>, AltingChannelOutput<T> {
    private static final Object POISON = new Object();
    /** What a waiting reader's fiber carries until a writer hands it a value. */
    private static final Object READING = new Object();
    private static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(RendezvousChannel.class, "slot", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Object slot;

    @Override
    public AltingChannelInput<T> in() {
        return this;
    }

    @Override
    public AltingChannelOutput<T> out() {
        return this;
    }

    @Override
    @Pausable
    @SuppressWarnings("unchecked")
    public T read() {
        Fiber me = Fiber.current();
        for (;;) {
            Object s = slot;
            if (s == POISON) {
                throw poisoned();
            }
            if (s == null) {
                me.transfer = READING;
                if (SLOT.compareAndSet(this, null, me)) {
                    Fiber.parkOn(this);
                    Object v = me.transfer;
                    me.transfer = null;
                    if (v == POISON) {
                        throw poisoned();
                    }
                    return (T) v;
                }
                me.transfer = null;
            } else if (((Fiber) s).transfer == READING && slot == s) {
                throw new IllegalStateException("two processes read a one2one channel at once; use a one2any"
                        + " or any2any channel to share the input");
            } else if (SLOT.compareAndSet(this, s, null)) {
                Fiber writer = (Fiber) s;
                Object v = writer.transfer;
                writer.transfer = null;
                writer.unpark();
                return (T) v;
            }
        }
    }

    @Override
    @Pausable
    public void write(T value) {
        if (value == null) {
            throw new NullPointerException("cannot write null to a channel");
        }
        Fiber me = Fiber.current();
        for (;;) {
            Object s = slot;
            if (s == POISON) {
                throw poisoned();
            }
            if (s == null) {
                me.transfer = value;
                if (SLOT.compareAndSet(this, null, me)) {
                    Fiber.parkOn(this);
                    Object v = me.transfer;
                    me.transfer = null;
                    if (v == POISON) {
                        throw poisoned();
                    }
                    return;
                }
                me.transfer = null;
            } else if (((Fiber) s).transfer != READING && slot == s) {
                // (poison swaps the slot before it marks the waiter, so a poisoned waiter fails the re-check)
                throw new IllegalStateException("two processes write a one2one channel at once; use an any2one"
                        + " or any2any channel to share the output");
            } else if (SLOT.compareAndSet(this, s, null)) {
                Fiber reader = (Fiber) s;
                reader.transfer = value;
                reader.unpark();
                return;
            }
        }
    }

    @Override
    public boolean pending() {
        Object s = slot;
        return s instanceof Fiber && ((Fiber) s).transfer != READING;
    }

    @Override
    public void poison() {
        Object s = SLOT.getAndSet(this, POISON);
        if (s instanceof Fiber) {
            Fiber waiting = (Fiber) s;
            waiting.transfer = POISON;
            waiting.unpark();
        }
    }

    private static PoisonException poisoned() {
        return new PoisonException("the channel is poisoned");
    }
}
