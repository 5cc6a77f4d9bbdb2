package dev.weft.csp;

/**
 * A communicating sequential process: the unit of concurrency in Weft. Run one with
 * {@link Weft#run(CSProcess)} or start one beside the current process with {@link Weft#spawn(CSProcess)}.
 */
@FunctionalInterface
public interface CSProcess {
    /** The body of the process; it may pause on channels, barriers, timers and joins. */
    @Pausable
    void run();
}
