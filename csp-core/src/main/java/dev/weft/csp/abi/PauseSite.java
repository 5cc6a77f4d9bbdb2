package dev.weft.csp.abi;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One pausable call of woven code: where it is, for dumps, its resume point, the index of the call among
 * its method's pausable calls, and how many references a frame that pauses there saves. That frame saves this
 * one object after those references ({@link dev.weft.csp.abi.Continuation#pushResume}).
 *
 * <p>This is the weaver's ABI, not an API for users. Each call site has one instance, a constant once linked:
 * woven code of class file version 51 (Java 7) and later gets it from an {@code invokedynamic} whose call site
 * {@link #bootstrap} binds to it; older class files, which have no {@code invokedynamic}, look it up with
 * {@link #of} each time they pause (the slow path).
 */
public final class PauseSite {
    /** The sites of pre-Java-7 class files by text, each array indexed by resume point; copied on write. */
    private static final ConcurrentHashMap<String, PauseSite[]> INTERNED = new ConcurrentHashMap<>();

    final String text;
    final int point;
    /** The references a frame pausing here saves below this site: a dump steps over them to the next frame. */
    final int refs;

    private PauseSite(String text, int point, int refs) {
        if (point < 0 || refs < 0) {
            throw new IllegalArgumentException("negative resume point " + point + " or saved references " + refs
                    + " at " + text);
        }
        this.text = text;
        this.point = point;
        this.refs = refs;
    }

    /**
     * The bootstrap method of the {@code invokedynamic} that woven code runs when a frame pauses at a call:
     * binds the call site, once, to the call's {@code PauseSite}, so that compiled code sees a constant.
     *
     * @param text  where the call is, as a stack trace shows it: {@code pkg.Class.method(File.java:42)}
     * @param point the call's index among its method's pausable calls
     * @param refs  how many references a frame pausing there saves
     */
    public static CallSite bootstrap(MethodHandles.Lookup caller, String name, MethodType type, String text, int point,
                                     int refs) {
        return new ConstantCallSite(MethodHandles.constant(PauseSite.class, new PauseSite(text, point, refs)));
    }

    /**
     * The site for woven class files older than version 51, which cannot use {@link #bootstrap}: one instance
     * per (text, point), found in a concurrent map at each pause. Slower than the constant that
     * {@code invokedynamic} gives newer class files, but it allocates nothing once a site is known.
     */
    public static PauseSite of(String text, int point, int refs) {
        PauseSite[] known = INTERNED.get(text);
        if (known != null && point >= 0 && point < known.length && known[point] != null) {
            PauseSite site = known[point];
            // Two methods with one text (same name, same line) may differ in what they save: the rare second is
            // not interned.
            return site.refs == refs ? site : new PauseSite(text, point, refs);
        }
        PauseSite site = new PauseSite(text, point, refs); // checks its values before the map grows for it
        PauseSite interned = INTERNED.compute(text, (t, old) -> {
            if (old != null && point < old.length && old[point] != null) {
                return old; // another thread came first
            }
            PauseSite[] sites = old == null ? new PauseSite[point + 1] : Arrays.copyOf(old, Math.max(old.length, point + 1));
            sites[point] = site;
            return sites;
        })[point];
        return interned.refs == refs ? interned : site;
    }

    /** Where the call is: {@code pkg.Class.method(File.java:42)}. */
    public String text() {
        return text;
    }

    /** The index of the call among its method's pausable calls: where the woven method resumes. */
    public int point() {
        return point;
    }

    /** How many references a frame that pauses here saves (below this site, on the saved-reference stack). */
    public int refs() {
        return refs;
    }

    /** The {@link #text()}, as a stack trace shows the call. */
    @Override
    public String toString() {
        return text;
    }
}
