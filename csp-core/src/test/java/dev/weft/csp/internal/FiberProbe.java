package dev.weft.csp.internal;

import dev.weft.csp.Fiber;

/** What tests ask of a fiber's state ({@link FiberState}'s protected members), to wait for a fiber to park. */
public final class FiberProbe {
    private FiberProbe() {
    }

    /** See {@link FiberState#isParked()}. */
    public static boolean isParked(Fiber f) {
        return f.isParked();
    }

    /** See {@link FiberState#blocker()}. */
    public static Object blocker(Fiber f) {
        return f.blocker();
    }
}
