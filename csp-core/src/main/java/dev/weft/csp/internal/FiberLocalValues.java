package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.FiberLocal;
import dev.weft.csp.runtime.RunGroup;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A fiber's {@link FiberLocal} values with its run's {@link RunGroup}, in {@link Fiber#runAndLocals}: made when
 * the fiber first has some, so that a fiber without any pays no field for them. The run is final: other threads
 * read it through {@link #group} while the fiber changes its values.
 */
public final class FiberLocalValues {
    final RunGroup group;
    /** Used by the fiber only. */
    final Map<FiberLocal<?>, Object> values;

    private FiberLocalValues(RunGroup group, Map<FiberLocal<?>, Object> values) {
        this.group = group;
        this.values = values;
    }

    /** The run of a fiber whose {@link Fiber#runAndLocals} is {@code runAndLocals}, or null. Any thread. */
    static RunGroup group(Object runAndLocals) {
        return runAndLocals instanceof FiberLocalValues ? ((FiberLocalValues) runAndLocals).group
                : (RunGroup) runAndLocals;
    }

    /** {@code f}'s values, or null while it has none. Used by that fiber only. */
    public static Map<FiberLocal<?>, Object> of(Fiber f) {
        Object r = f.runAndLocals;
        return r instanceof FiberLocalValues ? ((FiberLocalValues) r).values : null;
    }

    /** {@code f}'s values, made empty if it has none yet. Used by that fiber only. */
    public static Map<FiberLocal<?>, Object> toChange(Fiber f) {
        Object r = f.runAndLocals;
        if (r instanceof FiberLocalValues) {
            return ((FiberLocalValues) r).values;
        }
        FiberLocalValues l = new FiberLocalValues((RunGroup) r, new IdentityHashMap<>(4));
        f.runAndLocals = l;
        return l.values;
    }

    /** New fiber {@code f} starts with the values of the fiber (or plain thread) that starts it. */
    static void inherit(Fiber f) {
        Fiber spawner = Fiber.runningFiber();
        if (spawner == null) {
            spawner = ThreadMode.ofThisThread();
        }
        Map<FiberLocal<?>, Object> inherited = spawner == null ? null : of(spawner);
        if (inherited != null && !inherited.isEmpty()) {
            f.runAndLocals = new FiberLocalValues(f.group(), new IdentityHashMap<>(inherited));
        }
    }
}
