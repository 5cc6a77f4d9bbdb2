package dev.weft.weaver;

/**
 * The weaving engine: turns the {@code @Pausable} methods of a class file into resumable fibers. One engine
 * behind the Maven goal, the java agent and the command line.
 *
 * <p>An instance caches what it learns about classes; it is safe for use by several threads at once.
 */
public final class Weaver {
    /** Version of the contract between woven code and the runtime; recorded in every woven class. */
    public static final int ABI_VERSION = 7; // 7: Continuation.pushResumeIfPausing; 6: the ABI in dev.weft.csp.abi

    private final ClassHierarchy hierarchy;
    private final boolean preemptive;

    /**
     * An engine that resolves callees through {@code classpath} (the classes being woven first, then their
     * libraries), with the JDK's classes after it.
     */
    public Weaver(ClassFinder classpath) {
        this(classpath, false);
    }

    /**
     * As {@link #Weaver(ClassFinder)}; if {@code preemptive}, every loop back-edge of a pausable method
     * (outside {@code synchronized} blocks) also gets a preemption check: a counter in a local variable,
     * and every 8192 passes a call to {@code Fiber.yieldIfOthersWait()}, so that a fiber spinning in a loop
     * lets the other fibers of its carrier run (COMPOSITA's checkpoints). Off by default: fibers are
     * cooperative, and a check costs a decrement and a branch per iteration.
     */
    public Weaver(ClassFinder classpath, boolean preemptive) {
        this.hierarchy = new ClassHierarchy(classpath.then(ClassFinder.jdk()));
        this.preemptive = preemptive;
    }

    /** Whether this engine inserts preemption checks at loop back-edges. */
    public boolean isPreemptive() {
        return preemptive;
    }

    /**
     * Weaves one class file.
     *
     * @return the woven class file, or the very same array if the class needs no weaving (no pausable code)
     *         or is woven already
     * @throws WeaveException listing every error found in the class (file, line, method, what is wrong)
     */
    public byte[] weave(byte[] classFile) {
        return new ClassWeaver(hierarchy, classFile, preemptive).weave();
    }

    /**
     * Whether {@code classFile} is woven already, as this engine would weave it: a tool then skips it.
     *
     * @throws WeaveException if it was woven with the other {@code preemptive} setting, or for another ABI
     *         version (by an older or newer csp-weaver, its code calls a runtime this one's does not match):
     *         woven code cannot be woven again, so keeping it would silently keep the old weaving
     */
    public boolean isWovenAlready(byte[] classFile) {
        WovenMarker marker = WovenMarker.read(classFile);
        if (!marker.woven) {
            return false;
        }
        String cls = Names.simpleClass(marker.className);
        String why = null;
        if (marker.abi != ABI_VERSION) {
            why = cls + " was woven for ABI version " + marker.abi + " of the runtime (another csp-weaver) but this"
                    + " weave writes version " + ABI_VERSION;
        } else if (marker.preemptive != preemptive) {
            why = cls + " was woven with preemptive=" + marker.preemptive + " but this weave asks preemptive="
                    + preemptive;
        }
        if (why != null) {
            throw new WeaveException(new WeaveError(marker.sourceFile, 0, cls, why + "; woven code cannot be"
                    + " woven again: recompile it (mvn clean, or delete the class files) and weave javac's output"));
        }
        return true;
    }

    /** Whether {@code classFile} carries the woven marker. */
    public static boolean isWoven(byte[] classFile) {
        return ClassWeaver.isWoven(classFile);
    }
}
