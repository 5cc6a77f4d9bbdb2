package dev.weft.csp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One blocking select of an {@link Alternative}: the fiber that waits and the guard chosen for it. The
 * first party to claim the selection (a channel partner, a timer) with one compare-and-set wins, and only
 * it wakes the fiber, so every pause is matched by exactly one wake-up.
 */
final class Selection {
    private static final VarHandle SELECTED;

    static {
        try {
            SELECTED = MethodHandles.lookup().findVarHandle(Selection.class, "selected", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Fiber fiber;
    private volatile int selected = -1;

    Selection(Fiber fiber) {
        this.fiber = fiber;
    }

    /** Chooses guard {@code index} if nothing was chosen yet. */
    boolean claim(int index) {
        return SELECTED.compareAndSet(this, -1, index);
    }

    int selected() {
        return selected;
    }

    /** A registration of this selection on one guard, as a channel queues it. */
    static final class Registration {
        final Selection selection;
        final int index;

        Registration(Selection selection, int index) {
            this.selection = selection;
            this.index = index;
        }
    }
}
