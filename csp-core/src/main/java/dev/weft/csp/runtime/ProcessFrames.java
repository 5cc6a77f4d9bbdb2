package dev.weft.csp.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * The frames of a running fiber's own code in its carrier's stack: those above {@code Fiber.runSlice}, which
 * are the carrier's, and without the JDK's method-handle frames between the two (the call of the woven
 * process), which say nothing about the user's code.
 */
public final class ProcessFrames {
    private ProcessFrames() {
    }

    /** The frames of {@code carrierStack} (innermost first) that belong to the fiber running on it. */
    public static List<StackTraceElement> of(StackTraceElement[] carrierStack) {
        List<StackTraceElement> out = new ArrayList<>();
        for (StackTraceElement e : carrierStack) {
            if (e.getClassName().equals("dev.weft.csp.Fiber") && e.getMethodName().equals("runSlice")) {
                break;
            }
            if (!e.getClassName().startsWith("java.lang.invoke.")) {
                out.add(e);
            }
        }
        return out;
    }
}
