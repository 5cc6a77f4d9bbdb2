package dev.weft.csp;

/**
 * Thrown by {@link Weft#run} when no fiber of its scheduler can ever run again: every fiber is blocked, no
 * timer is pending, no {@link Weft#blocking} call is in flight, each blocked fiber waits on a channel end,
 * barrier, alternative or join, and a garbage collection found that nothing outside the blocked fibers can
 * reach them (no thread, executor task, fiber of another scheduler or fiber handle holds what they wait on).
 * Fibers waiting on something an outside party still holds are never reported: they wait for it. The
 * message names each blocked fiber of the run, what it waits on, and its woven stack, as a fiber dump shows
 * it.
 *
 * <p>After the report, the run's blocked fibers are cancelled ({@link Fiber#cancel()}): they unwind, their
 * {@code finally} blocks run, and they have ended when {@code Weft.run} throws. Failures of the run's fibers
 * that nobody joined (often why the others wait) come with it as suppressed exceptions.
 */
public final class DeadlockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A deadlock report with {@code message}: the blocked fibers and what they wait on. */
    public DeadlockException(String message) {
        super(message);
    }
}
