package dev.weft.csp.abi;



import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The saved-frame stacks as woven code drives them: each frame's references, then its {@link PauseSite}, on
 * one reference stack; primitives on a {@code long[]} that keeps its own top; both surviving growth.
 */
@Timeout(30)
class SavedFramesTest {
    /** How many resume points the methods the test plays have: more than any of its sites uses. */
    private static final int POINTS = 4;

    /** A continuation that is never scheduled: the test plays the woven code. */
    private static final class Frames extends Continuation {
    }

    /** Frame {@code frame}'s site: it saves {@code frame % 4} references. */
    private static PauseSite site(int frame) {
        return PauseSite.of("test.Deep.frame" + frame + "(Deep.java:" + (100 + frame) + ")", frame % 3, frame % 4);
    }

    /**
     * Frames saved innermost first, each with its references, a long and an int, are restored outermost first,
     * and a dump walks them all, innermost first.
     */
    @Test
    void framesAndValuesComeBackInOrderThroughGrowth() {
        Frames c = new Frames();
        int depth = 40;
        for (int f = 0; f < depth; f++) {
            for (int r = 0; r < f % 4; r++) {
                Continuation.pushRef("ref" + f + "." + r, c);
            }
            Continuation.pushLong(f * 1_000_000_007L, c);
            Continuation.pushInt(-f, c);
            Continuation.pushResume(site(f), c);
        }
        assertTrue(c.hasSavedFrames());
        String[] sites = c.pauseSites();
        assertEquals(depth, sites.length);
        for (int f = 0; f < depth; f++) {
            assertEquals(site(f).text(), sites[f], "innermost first");
        }
        for (int f = depth - 1; f >= 0; f--) {
            assertEquals(f % 3, c.popResume(POINTS));
            assertEquals(-f, c.popInt());
            assertEquals(f * 1_000_000_007L, c.popLong());
            for (int r = f % 4 - 1; r >= 0; r--) {
                assertEquals("ref" + f + "." + r, c.popRef());
            }
        }
        assertFalse(c.hasSavedFrames());
        assertArrayEquals(new String[0], c.pauseSites());
    }

    /**
     * After a call in tail position: a paused callee's frame gets its site pushed; a callee that returned leaves
     * the saved frames as they were (the site only waits in the free slot above them).
     */
    @Test
    void aTailCallRecordsItsSiteOnlyIfTheCalleePaused() {
        Frames c = new Frames();
        Continuation.pushRef("a", c);
        Continuation.pushResume(site(1), c);
        c.mode = Continuation.RUNNING;
        Continuation.pushResumeIfPausing(tailSite(0), c);
        assertArrayEquals(new String[] {site(1).text()}, c.pauseSites(), "returned: nothing recorded");
        for (int k = 1; k <= 3; k++) {
            c.mode = Continuation.PAUSING;
            Continuation.pushResumeIfPausing(tailSite(k), c);
        }
        assertArrayEquals(new String[] {site(1).text(), tailSite(1).text(), tailSite(2).text(), tailSite(3).text()},
                c.pauseSites(), "paused: recorded, through growth");
        for (int k = 3; k >= 1; k--) {
            assertEquals(k, c.popResume(POINTS));
        }
        assertEquals(1 % 3, c.popResume(POINTS));
        assertEquals("a", c.popRef());
        assertFalse(c.hasSavedFrames());
    }

    /** The site of a call in tail position: its frame saves nothing. */
    private static PauseSite tailSite(int k) {
        return PauseSite.of("test.Tail.call" + k + "(Tail.java:" + (200 + k) + ")", k, 0);
    }

    @Test
    void theFirstArraysHoldFourEntries() {
        Frames c = new Frames();
        Continuation.pushResume(site(0), c);
        Object[] refs = SavedRefs.of(c);
        assertEquals(4, refs.length);
        Continuation.pushRef("a", c);
        Continuation.pushRef("b", c);
        Continuation.pushResume(site(2), c);
        assertSame(refs, SavedRefs.of(c), "two sites and two references fit");
        assertSame(site(0), refs[0]);
        assertSame(site(2), refs[3]);
        Continuation.pushRef("c", c);
        assertEquals(8, SavedRefs.of(c).length);
        assertEquals("c", c.popRef());
        assertEquals(2, c.popResume(POINTS));
        assertEquals("b", c.popRef());
        assertEquals("a", c.popRef());
        assertEquals(0, c.popResume(POINTS));
        c.clearSavedFrames();
        assertEquals(0, SavedRefs.of(c).length);

        for (int i = 0; i < 3; i++) {
            Continuation.pushInt(i, c); // three values and the top
        }
        assertEquals(4, SavedRefs.prims(c).length);
        Continuation.pushInt(3, c);
        assertEquals(8, SavedRefs.prims(c).length);
        for (int i = 3; i >= 0; i--) {
            assertEquals(i, c.popInt());
        }
        c.clearSavedFrames();
        Continuation.pushLong(Long.MIN_VALUE, c); // the shared empty stack was never written
        assertEquals(Long.MIN_VALUE, c.popLong());
    }

    /**
     * A popped site stays in its slot, so that pausing there again stores nothing: a frame pausing elsewhere, or
     * after references took the slot, must still find its own site there.
     */
    @Test
    void aSiteLeftInPlaceIsReplacedWhenTheFramePausesElsewhere() {
        Frames c = new Frames();
        PauseSite a = PauseSite.of("test.Loop.run(Loop.java:10)", 0, 0);
        PauseSite b = PauseSite.of("test.Loop.run(Loop.java:11)", 1, 0);
        Continuation.pushResume(a, c);
        assertEquals(0, c.popResume(POINTS));
        Continuation.pushResume(a, c);
        assertArrayEquals(new String[] {a.text()}, c.pauseSites());
        assertEquals(0, c.popResume(POINTS));
        Continuation.pushResume(b, c);
        assertArrayEquals(new String[] {b.text()}, c.pauseSites());
        assertEquals(1, c.popResume(POINTS));
        Continuation.pushRef("r", c); // over the slot where b was left
        assertEquals("r", c.popRef());
        Continuation.pushResume(b, c);
        assertSame(b, SavedRefs.of(c)[0]);
        assertEquals(1, c.popResume(POINTS));
    }

    /** A corrupt state, where a site should be, fails with a clear message rather than a ClassCastException. */
    @Test
    void resumingWithoutASiteThrowsIllegalState() {
        Frames empty = new Frames();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> empty.popResume(POINTS));
        assertTrue(e.getMessage().startsWith("corrupt fiber state: no pause site"), e.getMessage());

        Frames c = new Frames();
        Continuation.pushResume(site(0), c);
        SavedRefs.of(c)[0] = "garbage";
        e = assertThrows(IllegalStateException.class, () -> c.popResume(POINTS));
        assertTrue(e.getMessage().contains("garbage"), e.getMessage());
    }

    /** A resume point that is none of the resuming method's fails, naming the site, and pops nothing. */
    @Test
    void aResumePointOutsideTheMethodsThrowsIllegalState() {
        Frames c = new Frames();
        Continuation.pushResume(site(2), c);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.popResume(2));
        assertEquals("corrupt fiber state: resume point 2 of " + site(2).text() + " is none of the 2 of the method"
                + " resuming", e.getMessage());
        assertEquals(2, c.popResume(3));
    }

    /** A fiber blocked in a read keeps its sites and references in the smallest array. */
    @Test
    void aFiberBlockedInAReadFitsTheSmallestArray() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                One2OneChannel<Integer> ch = Channel.one2one();
                Fiber reader = Weft.spawn(() -> ch.in().read());
                while (reader.pauseSites().length == 0) {
                    Fiber.yield();
                }
                assertEquals(4, SavedRefs.of(reader).length, String.join(", ", reader.pauseSites()));
                ch.out().write(1);
                reader.join();
            });
        }
    }
}
