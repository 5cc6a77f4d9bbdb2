package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.CSProcess;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;

/** What the conformance tests share beside {@link dev.weft.csp.Schedulers}. */
final class Conformance {
    private Conformance() {
    }

    /** Runs {@code op} (pausing, in a fiber) and returns what it threw, which must be a {@code type}. */
    @Pausable
    static <X extends Throwable> X expect(Class<X> type, CSProcess op) {
        try {
            op.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + type.getSimpleName() + ", nothing was thrown");
    }

    /** Checks that a new reader of {@code in} gets {@code value} written to {@code out}: nothing stale is left. */
    @Pausable
    static void aNewReaderGets(ChannelInput<Integer> in, ChannelOutput<Integer> out, int value) {
        int[] got = new int[1];
        Fiber reader = Weft.spawn(() -> got[0] = in.read());
        out.write(value);
        reader.join();
        assertEquals(value, got[0]);
    }
}
