package dev.weft.csp.runtime;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What a pool asks when it may have come to rest: every worker parked or about to park, nothing queued,
 * no timer pending, no blocking call in flight. The check looks at the fibers themselves, and sends a
 * {@link DeadlockProbe} when they may be deadlocked; the probe's answer comes back through
 * {@link #unreachable}.
 */
public interface DeadlockCheck {
    /**
     * Examines {@code pool}, whose workers were all found at rest. {@code stillAtRest} tells whether no
     * worker has run a fiber (and no fiber was spawned or queued) since then; ask it after reading the
     * fibers, so that what was read is one consistent picture.
     */
    void check(WorkerPool pool, BooleanSupplier stillAtRest);

    /**
     * A {@link DeadlockProbe} sent by {@link WorkerPool#sendProbes} was found unreachable: nothing outside
     * {@code fibers} can reach them, so none can ever be woken other than by a cancellation. They are back
     * in the pool's lists. Returns whether their run was failed (false if it had failed already).
     */
    boolean unreachable(WorkerPool pool, List<Schedulable> fibers);

    /**
     * Whether every live fiber of {@code pool} waits either for a timer or on something only fibers of the
     * pool use: then only a timer can wake one, and a simulated pool may jump its clock to the next timer.
     * Asked by the pool's one carrier, between two fibers.
     */
    boolean onlyTimersCanWake(WorkerPool pool);

    /**
     * The warning for a run whose {@code fibers} have all been parked for {@code nanos}, the pool at rest,
     * while every collection found them still reachable from outside: their dump, and why no deadlock could
     * be reported.
     */
    String hangWarning(WorkerPool pool, List<Schedulable> fibers, long nanos);
}
