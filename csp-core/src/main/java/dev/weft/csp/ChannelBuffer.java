package dev.weft.csp;

import dev.weft.csp.internal.BufferState;

/**
 * The buffering policy of a channel: {@link #fixed(int)}, {@link #overwritingOldest(int)} or
 * {@link #unbounded()}. A buffer instance belongs to the one channel it is given to.
 */
@SuppressWarnings("exports") // BufferState, its superclass, is internal on purpose: its members are all protected
public abstract class ChannelBuffer<T> extends BufferState<T> {
    ChannelBuffer() {
    }

    /**
     * Holds up to {@code n} values; a writer waits while it is full.
     *
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public static <T> ChannelBuffer<T> fixed(int n) {
        checkCapacity(n);
        return new Fixed<>(n);
    }

    /**
     * Holds up to {@code n} values; a write to a full buffer drops the oldest value, so writers never wait.
     *
     * @throws IllegalArgumentException if {@code n} is less than 1
     */
    public static <T> ChannelBuffer<T> overwritingOldest(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("an overwriting buffer needs a capacity of at least 1, got " + n);
        }
        return new Overwriting<>(n);
    }

    /** Holds any number of values: writers never wait. */
    public static <T> ChannelBuffer<T> unbounded() {
        return new Fixed<>(Integer.MAX_VALUE);
    }

    static void checkCapacity(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("channel capacity cannot be negative, got " + n);
        }
    }

    private static final class Fixed<T> extends ChannelBuffer<T> {
        private final int capacity;

        Fixed(int capacity) {
            this.capacity = capacity;
        }

        @Override
        protected boolean hasSpace() {
            return items().size() < capacity;
        }

        @Override
        protected void put(T value) {
            items().addLast(value);
        }

        @Override
        protected boolean isSynchronous() {
            return capacity == 0;
        }
    }

    private static final class Overwriting<T> extends ChannelBuffer<T> {
        private final int capacity;

        Overwriting(int capacity) {
            this.capacity = capacity;
        }

        @Override
        protected boolean hasSpace() {
            return true;
        }

        @Override
        protected void put(T value) {
            if (items().size() == capacity) {
                items().pollFirst();
            }
            items().addLast(value);
        }

        @Override
        protected boolean isSynchronous() {
            return false;
        }
    }
}
