package dev.weft.bench.net;

import java.util.concurrent.locks.LockSupport;

/**
 * Hands one value at a time from a Netty event loop to a plain thread that blocks for it: the thread parks,
 * the event loop stores the value and unparks it. This is the cheapest way for an event loop to wake a
 * blocked application thread, so the raw Netty figures stay a lower bound for any library whose callers block.
 * The giver never waits: there is at most one value in flight (a ping-pong, or one "all done").
 */
final class Handoff<T> {
    private volatile T value;
    private volatile Thread taker;

    /** From the event loop: stores {@code v} and wakes the taker if it is parked. */
    void give(T v) {
        value = v;
        Thread t = taker; // read after the store: a taker that parks after this store sees the value first
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Blocks the calling thread until a value is given, and takes it. */
    T take() {
        taker = Thread.currentThread();
        T v;
        while ((v = value) == null) {
            LockSupport.park(this);
        }
        value = null;
        return v;
    }
}
