package dev.weft.csp;

import dev.weft.csp.internal.WrappedProcess;
import java.time.Duration;

/**
 * A fiber that gives a value, as {@link Weft#async(Computation)} starts it: Kotlin's {@code async} and
 * {@code Deferred}, a {@code Future} that waits without a thread. {@link #join()} waits for the value.
 *
 * <pre>{@code
 * Task<Integer> left = Weft.async(() -> sum(lower));
 * Task<Integer> right = Weft.async(() -> sum(upper));
 * int total = left.join() + right.join();
 * }</pre>
 *
 * @param <T> the value's type
 */
public final class Task<T> {
    private Fiber fiber;
    private T value; // written by the fiber before it ends; read after its end is seen

    private Task() {
    }

    /** Starts {@code c} as a fiber, as {@link Weft#spawn(CSProcess)} would. */
    static <T> Task<T> start(Computation<T> c) {
        Task<T> t = new Task<>();
        t.fiber = Weft.spawn(new Body<>(t, c));
        return t;
    }

    /**
     * Waits for the value and returns it; rethrows what the computation threw (a cancelled task throws
     * {@link CancelledException}).
     *
     * @throws CancelledException if the waiting fiber is cancelled (or the waiting thread interrupted) first
     */
    @Pausable
    public T join() {
        fiber.join();
        return value;
    }

    /**
     * Waits at most {@code timeout} for the computation to end: false if it has not ended by then; true if it
     * has (then {@link #join()} returns its value at once), rethrowing what it threw.
     *
     * @throws CancelledException if the waiting fiber is cancelled (or the waiting thread interrupted) first
     */
    @Pausable
    public boolean join(Duration timeout) {
        return fiber.join(timeout);
    }

    /** Whether the computation has ended, with a value or an exception. */
    public boolean isDone() {
        return fiber.isDone();
    }

    /** Cancels the computation, as {@link Fiber#cancel()}. */
    public void cancel() {
        fiber.cancel();
    }

    /** The fiber that computes the value. */
    public Fiber fiber() {
        return fiber;
    }

    /** The task's fiber: computes the value and keeps it. Named after the computation in dumps. */
    private static final class Body<T> extends WrappedProcess {
        private final Task<T> task;
        private final Computation<T> computation;

        Body(Task<T> task, Computation<T> computation) {
            this.task = task;
            this.computation = computation;
        }

        @Override
        @Pausable
        public void run() {
            task.value = computation.compute();
        }

        @Override
        public Object wrapped() {
            return computation;
        }
    }

    @Override
    public String toString() {
        return "task " + fiber;
    }
}
