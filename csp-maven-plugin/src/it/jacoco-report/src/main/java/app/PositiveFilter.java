package app;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Pausable;

/** Copies the positive numbers it reads to its output, until it reads zero. */
public final class PositiveFilter {
    private PositiveFilter() {
    }

    /** Returns how many numbers it dropped. */
    @Pausable
    public static int copy(ChannelInput<Integer> in, ChannelOutput<Integer> out) {
        int dropped = 0;
        for (int v = in.read(); v != 0; v = in.read()) {
            if (v > 0) {
                out.write(v);
            } else {
                dropped++;
            }
        }
        return dropped;
    }
}
