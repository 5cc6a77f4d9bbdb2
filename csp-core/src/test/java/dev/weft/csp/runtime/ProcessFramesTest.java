package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A running fiber's frames: the user's, down to the carrier's {@code runSlice}, without method-handle frames. */
class ProcessFramesTest {
    private static StackTraceElement frame(String cls, String method) {
        return new StackTraceElement(cls, method, null, -1);
    }

    @Test
    void theUsersFramesWithoutTheCarriersOrTheMethodHandlesBetween() {
        StackTraceElement work = frame("com.acme.Farm", "work");
        StackTraceElement run = frame("com.acme.Farm", "lambda$main$0");
        StackTraceElement[] stack = {work, run,
                frame("java.lang.invoke.LambdaForm$DMH/0x0000000800c0c000", "invokeInterface"),
                frame("java.lang.invoke.LambdaForm$MH/0x0000000800c0d000", "invokeExact_MT"),
                frame("dev.weft.csp.Fiber", "runSlice"), frame("dev.weft.csp.runtime.Worker", "dispatchNext"),
                frame("dev.weft.csp.runtime.Worker", "run"), frame("java.lang.Thread", "run")};
        assertEquals(List.of(work, run), ProcessFrames.of(stack));
    }
}
