package dev.weft.csp.conformance;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Pausable;

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
}
