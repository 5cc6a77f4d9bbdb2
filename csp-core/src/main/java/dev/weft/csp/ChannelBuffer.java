package dev.weft.csp;

import java.util.ArrayDeque;

/**
 * The buffering policy of a channel: {@link #fixed(int)}, {@link #overwritingOldest(int)} or
 * {@link #unbounded()}. A buffer instance belongs to the one channel it is given to.
 */
public abstract class ChannelBuffer<T> {
    private final ArrayDeque<T> items = new ArrayDeque<>();
    private boolean owned;

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

    /** Claims this buffer for a channel; a buffer serves one channel only. */
    final synchronized ChannelBuffer<T> claim() {
        if (owned) {
            throw new IllegalArgumentException("this ChannelBuffer already belongs to another channel");
        }
        owned = true;
        return this;
    }

    final boolean isEmpty() {
        return items.isEmpty();
    }

    final T take() {
        return items.pollFirst();
    }

    final void clear() {
        items.clear();
    }

    final ArrayDeque<T> items() {
        return items;
    }

    /** Whether a write can complete now without a reader. */
    abstract boolean hasSpace();

    /** Adds a value; only called when {@link #hasSpace()}. */
    abstract void put(T value);

    /** Whether this is a zero-capacity buffer: every write meets its read. */
    abstract boolean isSynchronous();

    private static final class Fixed<T> extends ChannelBuffer<T> {
        private final int capacity;

        Fixed(int capacity) {
            this.capacity = capacity;
        }

        @Override
        boolean hasSpace() {
            return items().size() < capacity;
        }

        @Override
        void put(T value) {
            items().addLast(value);
        }

        @Override
        boolean isSynchronous() {
            return capacity == 0;
        }
    }

    private static final class Overwriting<T> extends ChannelBuffer<T> {
        private final int capacity;

        Overwriting(int capacity) {
            this.capacity = capacity;
        }

        @Override
        boolean hasSpace() {
            return true;
        }

        @Override
        void put(T value) {
            if (items().size() == capacity) {
                items().pollFirst();
            }
            items().addLast(value);
        }

        @Override
        boolean isSynchronous() {
            return false;
        }
    }
}
