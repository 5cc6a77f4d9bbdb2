package dev.weft.csp;

import dev.weft.csp.internal.ChannelImpl;
import java.util.Objects;

/**
 * Channel factories. A channel of capacity 0 (the default) is synchronous: a write completes only when a
 * reader has taken the value. With a capacity or a {@link ChannelBuffer}, writes complete while the buffer
 * has room.
 */
public final class Channel {
    private Channel() {
    }

    /** A synchronous channel between one writer and one reader. */
    public static <T> One2OneChannel<T> one2one() {
        return new ChannelImpl<>(null, false, false);
    }

    /** A one-to-one channel holding up to {@code capacity} values (0: synchronous). */
    public static <T> One2OneChannel<T> one2one(int capacity) {
        return one2one(ChannelBuffer.fixed(capacity));
    }

    /** A one-to-one channel buffered by {@code buffer}. */
    public static <T> One2OneChannel<T> one2one(ChannelBuffer<T> buffer) {
        return new ChannelImpl<>(Objects.requireNonNull(buffer, "buffer is null"), false, false);
    }

    /** A synchronous channel with any number of writers and one reader. */
    public static <T> Any2OneChannel<T> any2one() {
        return new ChannelImpl<>(null, false, true);
    }

    /** An any-to-one channel holding up to {@code capacity} values (0: synchronous). */
    public static <T> Any2OneChannel<T> any2one(int capacity) {
        return any2one(ChannelBuffer.fixed(capacity));
    }

    /** An any-to-one channel buffered by {@code buffer}. */
    public static <T> Any2OneChannel<T> any2one(ChannelBuffer<T> buffer) {
        return new ChannelImpl<>(Objects.requireNonNull(buffer, "buffer is null"), false, true);
    }

    /** A synchronous channel with one writer and any number of readers. */
    public static <T> One2AnyChannel<T> one2any() {
        return new ChannelImpl<>(null, true, false);
    }

    /** A one-to-any channel holding up to {@code capacity} values (0: synchronous). */
    public static <T> One2AnyChannel<T> one2any(int capacity) {
        return one2any(ChannelBuffer.fixed(capacity));
    }

    /** A one-to-any channel buffered by {@code buffer}. */
    public static <T> One2AnyChannel<T> one2any(ChannelBuffer<T> buffer) {
        return new ChannelImpl<>(Objects.requireNonNull(buffer, "buffer is null"), true, false);
    }

    /** A synchronous channel with any number of writers and readers. */
    public static <T> Any2AnyChannel<T> any2any() {
        return new ChannelImpl<>(null, true, true);
    }

    /** An any-to-any channel holding up to {@code capacity} values (0: synchronous). */
    public static <T> Any2AnyChannel<T> any2any(int capacity) {
        return any2any(ChannelBuffer.fixed(capacity));
    }

    /** An any-to-any channel buffered by {@code buffer}. */
    public static <T> Any2AnyChannel<T> any2any(ChannelBuffer<T> buffer) {
        return new ChannelImpl<>(Objects.requireNonNull(buffer, "buffer is null"), true, true);
    }
}
