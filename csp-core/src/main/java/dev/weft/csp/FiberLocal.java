package dev.weft.csp;

import dev.weft.csp.internal.FiberAccess;
import dev.weft.csp.internal.FiberLocalValues;
import dev.weft.csp.internal.ThreadMode;
import dev.weft.csp.runtime.Carrier;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value per fiber, as a {@link ThreadLocal} is per thread: a logging context, a transaction, a request's
 * identity. Thread locals do not fit fibers: many fibers take turns on one carrier thread, so a thread local
 * set by one fiber is seen by the next fiber that runs there, and a fiber that moves to another carrier loses
 * it. A fiber local follows its fiber wherever it runs.
 *
 * <p>A new fiber starts with the values of the fiber (or plain thread) that spawned it, as an
 * {@code InheritableThreadLocal} does; what either changes afterwards is its own. On a plain thread, outside
 * every fiber, the value is that thread's. Values are read and written by their own fiber only, so no lock is
 * taken. Like thread locals, fiber locals are meant to be long-lived, typically {@code static final} fields.
 *
 * <pre>{@code
 * static final FiberLocal<String> REQUEST = new FiberLocal<>();
 * REQUEST.set("req-42");
 * Weft.spawn(() -> log(REQUEST.get())); // "req-42", in the spawned fiber too
 * }</pre>
 *
 * @param <T> the value's type
 */
public final class FiberLocal<T> {
    /** What a fiber's map gives for a fiber local it has no value for (null may be a value). */
    private static final Object UNSET = new Object();
    private final Supplier<? extends T> initial;

    /** A fiber local whose value is null until it is set. */
    public FiberLocal() {
        this.initial = () -> null;
    }

    private FiberLocal(Supplier<? extends T> initial) {
        this.initial = initial;
    }

    /**
     * A fiber local whose value, until it is set, is what {@code initial} gives, asked once per fiber on its
     * first {@link #get()}.
     */
    public static <T> FiberLocal<T> withInitial(Supplier<? extends T> initial) {
        return new FiberLocal<>(Objects.requireNonNull(initial, "initial is null"));
    }

    /** The running fiber's value (the plain thread's, outside every fiber). */
    @SuppressWarnings("unchecked")
    public T get() {
        Fiber f = owner();
        Map<FiberLocal<?>, Object> values = FiberLocalValues.of(f);
        Object v0 = values == null ? UNSET : values.getOrDefault(this, UNSET); // one lookup: null is a value
        if (v0 != UNSET) {
            return (T) v0;
        }
        T v = initial.get();
        set(f, v);
        return v;
    }

    /** Sets the running fiber's value (the plain thread's, outside every fiber). */
    public void set(T value) {
        set(owner(), value);
    }

    /** Forgets the running fiber's value: the next {@link #get()} gives the initial value again. */
    public void remove() {
        Fiber f = owner();
        Map<FiberLocal<?>, Object> values = FiberLocalValues.of(f);
        if (values != null) {
            values.remove(this);
        }
    }

    private void set(Fiber f, T value) {
        FiberLocalValues.toChange(f).put(this, value);
    }

    /** The fiber running this code, or the plain thread's own fiber. */
    private static Fiber owner() {
        Fiber f = FiberAccess.runningFiber();
        if (f != null) {
            return f;
        }
        if (Thread.currentThread() instanceof Carrier) {
            throw new IllegalStateException("a fiber local is read outside every fiber on carrier "
                    + Thread.currentThread().getName());
        }
        return ThreadMode.forThread();
    }
}
