package dev.weft.weaver.classfiles;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Checks that class files are sound: ASM's verifier ({@link CheckClassAdapter#verify}) finds no problem, and
 * the JVM links them. Free of JUnit, so that a child JVM of a newer JDK can run it too ({@link #main}).
 */
final class BytecodeCheck {
    private BytecodeCheck() {
    }

    /** ASM's report on a class, types resolved through {@code loader}; empty if it found no problem. */
    static String asmReport(byte[] classFile, ClassLoader loader) {
        StringWriter report = new StringWriter();
        try (PrintWriter out = new PrintWriter(report)) {
            CheckClassAdapter.verify(new ClassReader(classFile), loader, false, out);
        } catch (RuntimeException e) { // the structural checks throw rather than print
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            return trace.toString();
        }
        return report.toString();
    }

    /**
     * Loads and links a class without initialising it: reflecting on its methods makes HotSpot link the
     * class, and linking runs the bytecode verifier on every class the boot loader does not load.
     */
    static void link(String binaryName, ClassLoader loader) throws ClassNotFoundException {
        Class.forName(binaryName, false, loader).getDeclaredMethods();
    }

    /** Every problem ASM's verifier or the JVM's linker finds in {@code classes} (internal name to class file). */
    static List<String> problems(Map<String, byte[]> classes, ClassLoader loader) {
        List<String> problems = new ArrayList<>();
        if (classes.isEmpty()) {
            problems.add("no classes to check");
        }
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
        return problems;
    }

    /**
     * Checks every class under the directory {@code args[0]}, which must be on this JVM's classpath; prints
     * each problem and {@code checked N classes}; exits with status 1 if there was any problem.
     */
    public static void main(String[] args) {
        Map<String, byte[]> classes = ClassFiles.read(Path.of(args[0]));
        List<String> problems = problems(classes, BytecodeCheck.class.getClassLoader());
        problems.forEach(p -> System.out.println("PROBLEM " + p));
        System.out.println("checked " + classes.size() + " classes");
        System.exit(problems.isEmpty() ? 0 : 1);
    }
}
