package dev.weft.weaver.agent;

import java.nio.charset.StandardCharsets;

/**
 * What the agent can tell from a class file's bytes alone, before it builds anything: whether the class may
 * need weaving at all. A class needs weaving only if it has a pausable method (which carries the annotation
 * {@code dev/weft/csp/Pausable}), calls Weft's API (whose classes are in {@code dev/weft/csp}), or makes a
 * lambda or method reference (through {@code LambdaMetafactory}), which may target a pausable interface of the
 * user's. Every such class names one of those in its constant pool; the others, most of what a JVM loads,
 * are skipped after a scan of their bytes.
 */
final class ClassFileScan {
    private static final byte[] WEFT = "dev/weft/csp/".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAMBDAS = "java/lang/invoke/LambdaMetafactory".getBytes(StandardCharsets.US_ASCII);

    private ClassFileScan() {
    }

    /** Whether the class file may need weaving (see above); false means it certainly does not. */
    static boolean mayNeedWeaving(byte[] classFile) {
        return classFile != null && (contains(classFile, WEFT) || contains(classFile, LAMBDAS));
    }

    static boolean contains(byte[] bytes, byte[] part) {
        byte first = part[0];
        for (int i = 0, last = bytes.length - part.length; i <= last; i++) {
            if (bytes[i] != first) {
                continue;
            }
            int j = 1;
            while (j < part.length && bytes[i + j] == part[j]) {
                j++;
            }
            if (j == part.length) {
                return true;
            }
        }
        return false;
    }
}
