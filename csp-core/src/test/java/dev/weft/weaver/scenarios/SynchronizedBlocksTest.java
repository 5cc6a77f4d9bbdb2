package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pauses next to {@code synchronized} blocks, where no monitor is held: in a {@code catch} around the block
 * (javac's own handler releases the monitor before the exception gets there) and after it. The weaver used to
 * refuse these as pauses "inside a synchronized block"; this class would then not build.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SynchronizedBlocksTest {
    private static final Object LOCK = new Object();
    private static final Object INNER = new Object();

    @Pausable
    static String pauseInCatchAroundSynchronized(Source in) {
        String out = "";
        for (int k = 0; k < 3; k++) {
            int v = in.next();
            try {
                synchronized (LOCK) {
                    if (v < 0) {
                        throw new IllegalArgumentException("neg");
                    }
                    out += v;
                }
            } catch (IllegalArgumentException e) {
                out += "[" + e.getMessage() + in.next() + "]";
            }
        }
        return out + in.next();
    }

    @Test
    void pausableCallInCatchAroundSynchronizedBlockAndAfterIt() {
        check(new int[] {1, -2, 7, 3, 9}, "1[neg7]39", SynchronizedBlocksTest::pauseInCatchAroundSynchronized);
    }

    @Pausable
    static String tryCoversPausesAndNestedMonitors(Source in) {
        String out = "";
        try {
            int v = in.next();
            synchronized (LOCK) {
                synchronized (INNER) {
                    out += v;
                    if (v > 5) {
                        throw new IllegalStateException("big");
                    }
                }
            }
            out += in.next();
        } catch (IllegalStateException e) {
            out += e.getMessage() + in.next();
        } finally {
            out += "/" + in.next();
        }
        return out;
    }

    @Test
    void oneTryAroundPausesAndNestedSynchronizedBlocks() {
        check(new int[] {3, 4, 5}, "34/5", SynchronizedBlocksTest::tryCoversPausesAndNestedMonitors);
        check(new int[] {8, 4, 5}, "8big4/5", SynchronizedBlocksTest::tryCoversPausesAndNestedMonitors);
    }
}
