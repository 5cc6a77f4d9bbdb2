package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Pausable;
import dev.weft.csp.Timer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How a {@code @WeftTest} method becomes a fiber: its woven form is called, or a clear error says why not. */
class WovenTestMethodTest {
    private String seen;

    /** Not @Pausable: the weaver leaves it alone, so it has no woven form. */
    void notPausable(WeftTestContext ctx) {
        seen = "ran";
    }

    @Pausable
    void sleepsAnHour(String greeting, WeftTestContext ctx) {
        Timer.sleep(Duration.ofHours(1)); // pauses: the call resumes through the hand-woven frame
        seen = greeting + " after " + ctx.elapsed();
    }

    @Test
    void aMethodThatIsNotPausableIsRefusedWithTheFix() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new WovenTestMethod(this,
                getClass().getDeclaredMethod("notPausable", WeftTestContext.class), new Object[] {null}));
        assertTrue(e.getMessage().contains(getClass().getName() + ".notPausable is not woven: mark it @Pausable"),
                e.getMessage());
    }

    @Test
    @Timeout(10)
    void theWovenFormRunsWithJUnitsArgumentsAndTheRunsContext() throws Exception {
        WovenTestMethod body = new WovenTestMethod(this,
                getClass().getDeclaredMethod("sleepsAnHour", String.class, WeftTestContext.class),
                new Object[] {"hello", null});
        assertNull(new Explorer().run(0, body));
        assertEquals("hello after PT1H", seen);
    }
}
