package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;

/**
 * Hears that a fiber is ending, before anyone can see it done, and that it has ended, as its joiners do: how a
 * {@link Parallel} learns of a branch's failure at once (to cancel the other branches) and of its end, without
 * a frame of its own around the user's process, which every pause of the branch would have to save and restore.
 */
public interface EndWatcher {
    /**
     * Called by the ending fiber itself, once, with what its process threw (null if it returned). Must not
     * pause; whatever it throws ends the fiber's carrier slice as a runtime failure, so it should not throw.
     */
    void ending(Fiber fiber, Throwable failure);

    /** Called by the ended fiber itself, once, when it is done, where it wakes its joiners. Must not pause or throw. */
    void ended(Fiber fiber);
}
