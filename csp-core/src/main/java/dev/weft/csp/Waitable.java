package dev.weft.csp;

import dev.weft.csp.runtime.WorkerPool;

/** Something a fiber can wait on (a channel end, a barrier, an alternative) that the deadlock check understands. */
interface Waitable {
    /**
     * Whether only fibers of {@code pool} have ever used it, so that only they could end a wait on it:
     * false once a plain thread or a fiber of another pool used it, or if a timer may end the wait.
     */
    boolean onlyUsedBy(WorkerPool pool);
}
