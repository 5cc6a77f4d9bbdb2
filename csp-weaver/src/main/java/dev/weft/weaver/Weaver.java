package dev.weft.weaver;

/**
 * The weaving engine: turns the {@code @Pausable} methods of a class file into resumable fibers. One engine
 * behind the Maven goal, the java agent and the command line.
 *
 * <p>An instance caches what it learns about classes; it is safe for use by several threads at once.
 */
public final class Weaver {
    /** Version of the contract between woven code and the runtime; recorded in every woven class. */
    public static final int ABI_VERSION = 1;

    private final ClassHierarchy hierarchy;

    /**
     * An engine that resolves callees through {@code classpath} (the classes being woven first, then their
     * libraries), with the JDK's classes after it.
     */
    public Weaver(ClassFinder classpath) {
        this.hierarchy = new ClassHierarchy(classpath.then(ClassFinder.jdk()));
    }

    /**
     * Weaves one class file.
     *
     * @return the woven class file, or the very same array if the class needs no weaving (no pausable code)
     *         or is woven already
     * @throws WeaveException listing every error found in the class (file, line, method, what is wrong)
     */
    public byte[] weave(byte[] classFile) {
        return new ClassWeaver(hierarchy, classFile).weave();
    }

    /** Whether {@code classFile} carries the woven marker. */
    public static boolean isWoven(byte[] classFile) {
        return ClassWeaver.isWoven(classFile);
    }
}
