package dev.weft.weaver.scenarios;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Pausable;

/**
 * The inputs of a scenario, served one at a time by a feeder on another fiber or thread. Every read is a
 * request followed by a reply on synchronous channels, so that a reader really pauses at each value.
 */
public final class Source {
    private static final Integer REQUEST = 0;

    private final ChannelOutput<Integer> requests;
    private final ChannelInput<Integer> replies;
    private final int limit;
    private int taken;

    Source(ChannelOutput<Integer> requests, ChannelInput<Integer> replies, int limit) {
        this.requests = requests;
        this.replies = replies;
        this.limit = limit;
    }

    /** The next input. */
    @Pausable
    public int next() {
        if (taken == limit) {
            throw new AssertionError("the scenario asked for more than its " + limit + " inputs");
        }
        taken++;
        requests.write(REQUEST);
        return replies.read();
    }

    /** The next input, widened to a long that uses the high word. */
    @Pausable
    public long nextLong() {
        return wide(next());
    }

    /** The next input as a double with a fraction. */
    @Pausable
    public double nextDouble() {
        return fraction(next());
    }

    /** The next input as a string. */
    @Pausable
    public String nextString() {
        return text(next());
    }

    /** The next input as a boolean (odd is true). */
    @Pausable
    public boolean nextBoolean() {
        return truth(next());
    }

    static long wide(int v) {
        return v * 4_294_967_311L - 3;
    }

    static double fraction(int v) {
        return v / 8.0 + 0.0625;
    }

    static String text(int v) {
        return "s" + v;
    }

    static boolean truth(int v) {
        return (v & 1) != 0;
    }
}
