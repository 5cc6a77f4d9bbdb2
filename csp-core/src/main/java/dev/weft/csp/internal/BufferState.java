package dev.weft.csp.internal;

import dev.weft.csp.ChannelBuffer;
import java.util.ArrayDeque;

/**
 * A {@link ChannelBuffer}'s values and what its channel does with them. Its members are protected: the channel
 * ({@link ChannelImpl}) calls them directly, and {@code ChannelBuffer}, the only subclass, cannot be subclassed
 * outside its package, so they are not part of its API.
 */
public abstract class BufferState<T> {
    private final ArrayDeque<T> items = new ArrayDeque<>();
    private boolean owned;

    /** For {@link ChannelBuffer} alone. */
    protected BufferState() {
    }

    /** Claims this buffer for a channel; a buffer serves one channel only. */
    protected final synchronized ChannelBuffer<T> claim() {
        if (owned) {
            throw new IllegalArgumentException("this ChannelBuffer already belongs to another channel");
        }
        owned = true;
        return (ChannelBuffer<T>) this; // its only subclass
    }

    protected final boolean isEmpty() {
        return items.isEmpty();
    }

    protected final T take() {
        return items.pollFirst();
    }

    protected final void clear() {
        items.clear();
    }

    protected final ArrayDeque<T> items() {
        return items;
    }

    /** Whether a write can complete now without a reader. */
    protected abstract boolean hasSpace();

    /** Adds a value; only called when {@link #hasSpace()}. */
    protected abstract void put(T value);

    /** Whether this is a zero-capacity buffer: every write meets its read. */
    protected abstract boolean isSynchronous();
}
