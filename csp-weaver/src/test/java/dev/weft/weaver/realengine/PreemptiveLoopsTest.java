package dev.weft.weaver.realengine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.weaver.ClassFinder;
import dev.weft.weaver.Weaver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.BasicVerifier;

/**
 * Preemptive mode on loops whose back-edge leaves the check no stack to spare: an empty loop (its method
 * declares a maximum stack of 0) and a do-while (its jump holds two operands at the method's maximum).
 */
class PreemptiveLoopsTest {
    /** Just enough of csp-core's {@code Fiber} for the engine to see the preemption check as pausable. */
    private static final String FIBER = """
            package dev.weft.csp;

            public final class Fiber {
                @Pausable
                public static void yieldIfOthersWait() {
                }
            }
            """;

    private static final String LOOPS = """
            package app;

            import dev.weft.csp.Pausable;

            public class Loops {
                static volatile boolean stop;

                @Pausable
                static void spin() {
                    for (;;) {}
                }

                @Pausable
                static void spinUntilStopped() {
                    while (!stop) {}
                }

                @Pausable
                static int count(int n) {
                    int i = 0;
                    do {
                        i++;
                    } while (i < n);
                    return i;
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void loopsWithNoStackToSpareAreWovenWithAConsistentCheck() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of("dev/weft/csp/Fiber.java", FIBER, "app/Loops.java", LOOPS));
        Weaver weaver = new Weaver(ClassFinder.ofPaths(List.of(classes)), true);

        byte[] woven = weaver.weave(Files.readAllBytes(classes.resolve("app/Loops.class")));

        ClassNode cls = new ClassNode();
        new ClassReader(woven).accept(cls, 0);
        for (String name : List.of("spin", "spinUntilStopped", "count")) {
            MethodNode m = cls.methods.stream()
                    .filter(x -> x.name.equals(name) && x.desc.contains("Ldev/weft/csp/Fiber;)"))
                    .findFirst().orElseThrow(() -> new AssertionError("no woven form of " + name));
            assertEquals(1, checks(m), name + ": one check on its one back-edge");
            // Stack sizes, local slots and types agree with the maximums the class file declares.
            new Analyzer<>(new BasicVerifier()).analyze(cls.name, m);
        }
    }

    private static long checks(MethodNode m) {
        int n = 0;
        for (AbstractInsnNode insn : m.instructions) {
            if (insn instanceof MethodInsnNode && ((MethodInsnNode) insn).name.equals("yieldIfOthersWait")) {
                n++;
            }
        }
        return n;
    }
}
