package dev.weft.csp;

import java.util.concurrent.Callable;

/**
 * A blocking call for {@link Weft#blockingChecked(BlockingCallable)} that declares the checked exception it
 * throws, so that the caller can catch that exception as itself:
 * <pre>{@code
 * try {
 *     String text = Weft.blockingChecked(() -> Files.readString(path));
 * } catch (IOException e) {
 *     ...
 * }
 * }</pre>
 * A lambda that throws no checked exception infers {@code X} as {@code RuntimeException}: nothing to catch.
 *
 * @param <T> the call's value
 * @param <X> the checked exception the call may throw
 */
@FunctionalInterface
public interface BlockingCallable<T, X extends Exception> extends Callable<T> {
    /** Makes the blocking call; runs on a blocking-call thread, never on a carrier. */
    @Override
    T call() throws X;
}
