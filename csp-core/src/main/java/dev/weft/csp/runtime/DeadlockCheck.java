package dev.weft.csp.runtime;

import java.util.function.BooleanSupplier;

/**
 * What a pool asks when it may have come to rest: every worker parked or about to park, nothing queued,
 * no timer pending, no blocking call in flight. The check decides from the fibers themselves.
 */
public interface DeadlockCheck {
    /**
     * Examines {@code pool}, whose workers were all found at rest. {@code stillAtRest} tells whether no
     * worker has run a fiber (and no fiber was spawned or queued) since then; ask it after reading the
     * fibers, so that what was read is one consistent picture.
     */
    void check(WorkerPool pool, BooleanSupplier stillAtRest);
}
