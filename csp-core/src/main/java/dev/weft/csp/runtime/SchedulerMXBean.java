package dev.weft.csp.runtime;

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

    /** Fibers started and not yet ended. */
    int getLiveFibers();

    /** Batches of fibers stolen by idle workers so far. */
    long getSteals();

    /** Every live fiber with its state, what it waits on and where it paused (see {@code Scheduler.dumpFibers}). */
    String dumpFibers();
}
