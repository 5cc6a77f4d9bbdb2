package dev.weft.csp.internal;

import dev.weft.csp.runtime.WorkerPool;

/** Something a fiber can wait on (a channel end, a barrier, an alternative) that the deadlock check understands. */
public interface Waitable {
    /**
     * Whether only fibers of {@code pool} have ever used it: false once a plain thread or a fiber of another
     * pool used it, or if a timer may end the wait; with {@code creatorCounts}, also false if a plain thread
     * made it (see {@link Uses}).
     */
    boolean onlyUsedBy(WorkerPool pool, boolean creatorCounts);
}
