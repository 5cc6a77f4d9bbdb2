package dev.weft.weaver.tool;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.WeaveException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the engine over text "class files", so that file handling is tested on its own: text
 * containing "pause" is woven (prefixed "WOVEN "), text containing "boom" has two errors, anything else is
 * returned as the same array.
 */
public final class FakeEngine implements ClassTransform {
    /** How many times {@link #weave} ran. */
    public final AtomicInteger weaveCalls = new AtomicInteger();

    /** The bytes of a text "class file". */
    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isWoven(byte[] classFile) {
        return new String(classFile, StandardCharsets.UTF_8).startsWith("WOVEN ");
    }

    @Override
    public byte[] weave(byte[] classFile) {
        weaveCalls.incrementAndGet();
        String text = new String(classFile, StandardCharsets.UTF_8);
        if (text.contains("boom")) {
            throw new WeaveException(List.of(
                    new WeaveError("Bad.java", 42, "Bad.run()", "pausable call inside synchronized"),
                    new WeaveError("Bad.java", 57, "Bad.<init>()", "pausable call in a constructor")));
        }
        return text.contains("pause") ? bytes("WOVEN " + text) : classFile;
    }
}
