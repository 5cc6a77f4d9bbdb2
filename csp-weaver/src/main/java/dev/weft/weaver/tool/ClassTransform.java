package dev.weft.weaver.tool;

import dev.weft.weaver.WeaveException;
import dev.weft.weaver.Weaver;

/**
 * What the command line, the Maven goal and the agent need from the engine: one class file in, the woven
 * class file (or the same array) out. An interface so that the file handling around it can be tested
 * without the engine.
 */
public interface ClassTransform {
    /**
     * Whether {@code classFile} is woven already, so that it can be skipped without weaving.
     *
     * @throws WeaveException if it is woven in a way this transform would not weave it
     */
    boolean isWoven(byte[] classFile);

    /**
     * The woven form of {@code classFile}, or the very same array if nothing needs weaving.
     *
     * @throws WeaveException listing every error found in the class
     */
    byte[] weave(byte[] classFile);

    /** The engine itself. */
    static ClassTransform of(Weaver weaver) {
        return new ClassTransform() {
            @Override
            public boolean isWoven(byte[] classFile) {
                try {
                    return weaver.isWovenAlready(classFile);
                } catch (WeaveException otherMode) {
                    throw otherMode;
                } catch (RuntimeException unreadable) {
                    // Too new or malformed: weave() then reports it as a weave error ("upgrade csp-weaver").
                    return false;
                }
            }

            @Override
            public byte[] weave(byte[] classFile) {
                return weaver.weave(classFile);
            }
        };
    }
}
