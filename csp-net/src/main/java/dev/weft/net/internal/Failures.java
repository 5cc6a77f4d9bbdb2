package dev.weft.net.internal;

import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.PoisonException;
import dev.weft.net.LinkLostException;

/** Failures of net ends: recorded once, thrown fresh each time so that each throw has its own stack. */
final class Failures {
    private Failures() {
    }

    /** A new exception like {@code recorded}, to throw at the caller. */
    static RuntimeException fresh(RuntimeException recorded) {
        if (recorded instanceof LinkLostException) {
            return new LinkLostException(recorded.getMessage());
        }
        if (recorded instanceof ChannelClosedException) {
            return new ChannelClosedException(recorded.getMessage());
        }
        if (recorded instanceof PoisonException) {
            return new PoisonException(recorded.getMessage());
        }
        return recorded;
    }
}
