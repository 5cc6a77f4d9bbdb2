package dev.weft.jcstress;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;

/**
 * Channels of capacity one that already hold a value, for a test's state. A constructor may not call a pausable
 * method, so the write happens here, in thread mode; it never waits, since the buffer has room.
 */
final class Filled {
    private Filled() {
    }

    /** A one-to-one channel of capacity one holding {@code value}. */
    static One2OneChannel<Integer> one2one(int value) {
        One2OneChannel<Integer> c = Channel.one2one(1);
        c.out().write(value);
        return c;
    }

    /** An any-to-one channel of capacity one holding {@code value}. */
    static Any2OneChannel<Integer> any2one(int value) {
        Any2OneChannel<Integer> c = Channel.any2one(1);
        c.out().write(value);
        return c;
    }
}
