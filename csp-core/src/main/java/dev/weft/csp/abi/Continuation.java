package dev.weft.csp.abi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;

/**
 * The part of a fiber that woven code talks to: the pause/resume mode and the saved activation frames.
 *
 * <p>This is the weaver's ABI, not an API for users. The protocol:
 * <ul>
 *   <li>Every woven method takes the running fiber as its last parameter.</li>
 *   <li>After each pausable call the caller reads {@link #mode}. {@link #PAUSING} means the callee has
 *       saved its frame: the caller records where it paused ({@link #pushResume}: the call's constant
 *       {@link PauseSite}, which holds the call site, for dumps, and the resume point, an index), saves the
 *       values it needs after the call (live locals and operand stack values that cannot be rebuilt) and
 *       returns. A call after which the caller returns at once ({@link #pushResumeIfPausing}) records its site
 *       without reading the mode itself.</li>
 *   <li>On entry a woven method reads {@link #mode}. {@link #RESUMING} means it is being re-entered:
 *       it pops its resume point ({@link #popResume}) and values, rebuilds its operand stack, and calls
 *       the callee again, which does the same, down to the primitive that paused; that primitive sets the
 *       mode back to {@link #RUNNING}.</li>
 * </ul>
 * Frames are saved innermost first and restored outermost first, so the saved values form two stacks:
 * primitives in a {@code long[]}, whose last element is its top (one int field less per fiber); references
 * and, last of each frame's, its {@link PauseSite}, in an {@code Object[]}. The site goes last so that
 * resuming pops it first; it records how many references its frame saved, so that a dump can walk the
 * frames. The arrays are reused from pause to pause: pausing allocates nothing once they have grown to the
 * fiber's depth. A frame that saves no primitive costs no {@code long[]} at all.
 */
public abstract class Continuation {
    /** For the runtime's subclass ({@code Schedulable}): woven code only reads and writes the fields below. */
    protected Continuation() {
    }

    /** Running normally: neither unwinding nor rewinding. */
    public static final int RUNNING = 0;
    /** A callee has paused; every frame saves itself and returns. */
    public static final int PAUSING = 1;
    /** Frames are being re-entered to reach the point of the pause. */
    public static final int RESUMING = -1;

    /** The empty primitive stack: its one element, its top, is 0, so the first push grows it. Never written. */
    private static final long[] NO_PRIMS = new long[1];
    private static final Object[] NO_REFS = new Object[0];

    /** One of {@link #RUNNING}, {@link #PAUSING}, {@link #RESUMING}; read by woven code after every pausable call. */
    public int mode;

    /** Saved primitives in {@code [0, top)}, where {@code top} is the array's last element. */
    private long[] prims = NO_PRIMS;
    /**
     * Saved references and pause sites in {@code [0, refTop)}, a frame's site above its references. A popped
     * site stays in place (a constant: it holds nothing of the fiber's), so that pausing there again need not
     * store it.
     */
    private Object[] refs = NO_REFS;
    private int refTop;

    /** Whether frames are saved, i.e. the next run must resume rather than start. */
    protected final boolean hasSavedFrames() {
        return refTop != 0; // every saved frame pushed at least its site
    }

    /** Drops every saved frame and returns the stacks to their empty state (the fiber has ended). */
    protected final void clearSavedFrames() {
        Arrays.fill(refs, 0, refTop, null);
        prims = NO_PRIMS;
        refs = NO_REFS;
        refTop = 0;
    }

    /**
     * Records where the frame being saved paused: woven code calls it with the call's constant site once the
     * frame has saved its values, innermost frame first. At most one store per frame: a frame that pauses where
     * the frame at its depth paused last time finds the site in place (a loop pausing at the same calls, the
     * common case, then pays no store and no GC write barrier).
     */
    public static void pushResume(PauseSite site, Continuation c) {
        c.refTop = c.placeSite(site) + 1;
    }

    /**
     * After a call in tail position (the frame saves nothing and returns the callee's value whether or not it
     * paused): records the call's site as {@link #pushResume} does if the callee paused, else nothing. Without a
     * branch on {@link #mode}, which a returned call leaves {@link #RUNNING} (0) or {@link #PAUSING} (1): the JIT
     * compiles a branch of woven code by its profile, and a side never taken while profiled (a process's call that
     * returns only when the process ends) would deoptimize the method the first time it is taken. Not pausing, it
     * writes the site into the free slot above the top, where a popped site stays anyway.
     */
    public static void pushResumeIfPausing(PauseSite site, Continuation c) {
        c.refTop = c.placeSite(site) + c.mode;
    }

    /** Puts {@code site} in the slot above the top (storing only if another is there); returns the top. */
    private int placeSite(PauseSite site) {
        Object[] a = refs;
        int top = refTop;
        if (top == a.length) {
            a = grow();
        }
        if (a[top] != site) {
            a[top] = site;
        }
        return top;
    }

    /**
     * Restores the resume point of the outermost saved frame: one of the {@code points} resume points of the
     * method resuming ({@code 0} to {@code points - 1}), whose dispatch then needs no check of its own. Anything
     * else, or anything but a site where a site should be, is corrupt state, and throws.
     */
    public final int popResume(int points) {
        int top = refTop - 1;
        Object site = top >= 0 ? refs[top] : null;
        int point = site instanceof PauseSite ? ((PauseSite) site).point : -1;
        if (point < 0 || point >= points) {
            throw corrupt(site, points);
        }
        refTop = top;
        return point;
    }

    /** Why {@code site} cannot be resumed by a method of {@code points} resume points (out of line: a cold path). */
    private static IllegalStateException corrupt(Object site, int points) {
        if (!(site instanceof PauseSite)) {
            return new IllegalStateException("corrupt fiber state: no pause site to resume from (" + site + ")");
        }
        return new IllegalStateException("corrupt fiber state: resume point " + ((PauseSite) site).point + " of "
                + ((PauseSite) site).text + " is none of the " + points + " of the method resuming");
    }

    /** Doubles {@link #refs}. */
    private Object[] grow() {
        return refs = Arrays.copyOf(refs, Math.max(4, refs.length * 2));
    }

    /**
     * The pause sites of the saved frames, innermost first; empty while the fiber runs. Another thread may
     * call it: the answer is then a best-effort snapshot, and never an exception. Each slot is read once, since
     * a fiber that resumes meanwhile overwrites them.
     */
    public final String[] pauseSites() {
        Object[] a = refs;
        ArrayList<String> out = new ArrayList<>();
        for (int i = Math.min(refTop, a.length) - 1; i >= 0; ) {
            if (!(a[i] instanceof PauseSite site)) {
                break;
            }
            out.add(site.text);
            i -= 1 + site.refs; // below a frame's site, its references, then the next frame's site
        }
        Collections.reverse(out);
        return out.toArray(new String[0]);
    }

    // ---- saving, called as static methods so that woven code pushes the value, then the fiber ----

    /** Saves an int (also boolean, byte, char, short). */
    public static void pushInt(int v, Continuation c) {
        c.pushPrim(v);
    }

    /** Saves a long. */
    public static void pushLong(long v, Continuation c) {
        c.pushPrim(v);
    }

    /** Saves a float. */
    public static void pushFloat(float v, Continuation c) {
        c.pushPrim(Float.floatToRawIntBits(v));
    }

    /** Saves a double. */
    public static void pushDouble(double v, Continuation c) {
        c.pushPrim(Double.doubleToRawLongBits(v));
    }

    /** Saves a reference. */
    public static void pushRef(Object v, Continuation c) {
        Object[] a = c.refs;
        int top = c.refTop;
        if (top == a.length) {
            a = c.grow();
        }
        a[top] = v;
        c.refTop = top + 1;
    }

    private void pushPrim(long v) {
        long[] a = prims;
        int last = a.length - 1;
        int top = (int) a[last];
        if (top == last) { // the old top, copied to index top, is overwritten below
            prims = a = Arrays.copyOf(a, Math.max(2, a.length * 2)); // first one value and the top
            last = a.length - 1;
        }
        a[top] = v;
        a[last] = top + 1;
    }

    private long popPrim() {
        long[] a = prims;
        int last = a.length - 1;
        int top = (int) a[last] - 1;
        a[last] = top;
        return a[top];
    }

    // ---- restoring ----

    /** Restores an int saved by {@link #pushInt}. */
    public final int popInt() {
        return (int) popPrim();
    }

    /** Restores a long. */
    public final long popLong() {
        return popPrim();
    }

    /** Restores a float. */
    public final float popFloat() {
        return Float.intBitsToFloat((int) popPrim());
    }

    /** Restores a double. */
    public final double popDouble() {
        return Double.longBitsToDouble(popPrim());
    }

    /** Restores a reference, clearing its slot so that a resumed fiber holds nothing twice. */
    public final Object popRef() {
        int top = --refTop;
        Object v = refs[top];
        refs[top] = null;
        return v;
    }
}
