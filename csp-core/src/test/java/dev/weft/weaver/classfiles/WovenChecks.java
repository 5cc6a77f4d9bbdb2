package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/** Checks that woven class files are sound: ASM's verifier finds no problem, and the JVM links them. */
final class WovenChecks {
    private WovenChecks() {
    }

    /** ASM's report on a class ({@link CheckClassAdapter#verify}), types resolved through {@code loader}; "" if sound. */
    static String asmReport(byte[] classFile, ClassLoader loader) {
        StringWriter report = new StringWriter();
        try (PrintWriter out = new PrintWriter(report)) {
            CheckClassAdapter.verify(new ClassReader(classFile), loader, false, out);
        } catch (RuntimeException e) { // CheckClassAdapter's structural checks throw rather than print
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            return trace.toString();
        }
        return report.toString();
    }

    /**
     * Loads and links a class without initialising it. Reflecting on its methods makes HotSpot link the
     * class, and linking runs the bytecode verifier (for every class not loaded by the boot loader).
     */
    static void link(String binaryName, ClassLoader loader) throws ClassNotFoundException {
        Class.forName(binaryName, false, loader).getDeclaredMethods();
    }

    /** Every class passes ASM's verifier and links in {@code loader}; fails listing every problem found. */
    static void assertSound(Map<String, byte[]> classes, ClassLoader loader) {
        assertTrue(!classes.isEmpty(), "no classes to check");
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            String report = asmReport(c.getValue(), loader);
            if (!report.isBlank()) {
                problems.add(c.getKey() + ": ASM's verifier reports:\n" + report);
            }
            try {
                link(c.getKey().replace('/', '.'), loader);
            } catch (ClassNotFoundException | LinkageError e) {
                problems.add(c.getKey() + ": does not link: " + e);
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " of " + classes.size() + " classes are not sound:\n"
                    + String.join("\n", problems));
        }
    }
}
