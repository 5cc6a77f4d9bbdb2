package dev.weft.csp.management;

/**
 * The management interface of a scheduler, registered as {@code dev.weft:type=Scheduler,name=NAME} in the
 * platform MBean server while the scheduler is open, so that JConsole, VisualVM or any JMX client can list
 * its fibers.
 */
public interface SchedulerMXBean {
    /** The scheduler's name (its carrier threads are named after it). */
    String getName();

    /** The number of carrier threads. */
    int getWorkers();

    /**
     * Fibers started and not yet ended: exact while the scheduler rests; while it is busy it may also count
     * a few dozen per carrier that ended there moments ago (see {@code LiveFibers}).
     */
    int getLiveFibers();

    /** Batches of fibers stolen by idle workers so far. */
    long getSteals();

    /**
     * Deadlock probes sent so far: each time every fiber was found parked on something only fibers of this
     * scheduler use, the garbage collector was asked whether anything outside can still reach them.
     */
    long getDeadlockProbes();

    /**
     * Deadlock probes whose collection found the fibers still reachable from outside (a plain thread, an
     * executor task, another scheduler's fiber holds what they wait on), so that nothing was reported.
     */
    long getDeadlockProbesRefuted();

    /** Every live fiber with its state, what it waits on and where it paused (see {@code Scheduler.dumpFibers}). */
    String dumpFibers();
}
