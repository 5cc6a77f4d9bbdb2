package dev.weft.weaver.realengine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
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

    /** Other loop shapes: nested loops left by a labelled continue, a switch in a loop, a long do-while. */
    private static final String MORE_LOOPS = """
            package app;

            import dev.weft.csp.Pausable;

            public class MoreLoops {
                int f;

                @Pausable
                int nested() {
                    int n = 0;
                    outer:
                    for (int i = 0; i < 3; i++) {
                        for (int j = 0; j < 3; j++) {
                            if (j == i) {
                                continue outer;
                            }
                            n++;
                        }
                    }
                    return n;
                }

                @Pausable
                int switchInLoop(int x) {
                    while (true) {
                        switch (x) {
                            case 1: x = 2; continue;
                            case 2: x = 3; continue;
                            default: return x;
                        }
                    }
                }

                @Pausable
                long sum(long[] xs) {
                    long s = 0;
                    int i = 0;
                    do {
                        s += xs[i++];
                    } while (i < xs.length);
                    return s;
                }

                @Pausable
                void drain() {
                    synchronized (this) {
                        while (f > 0) {
                            f--;
                        }
                    }
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void otherLoopShapesVerifyOnceWoven() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of("dev/weft/csp/Fiber.java", FIBER,
                "app/MoreLoops.java", MORE_LOOPS));
        Weaver weaver = new Weaver(ClassPath.open(List.of(classes)), true);

        byte[] woven = weaver.weave(Files.readAllBytes(classes.resolve("app/MoreLoops.class")));

        ClassNode cls = new ClassNode();
        new ClassReader(woven).accept(cls, 0);
        Map<String, Long> checksByMethod = new java.util.TreeMap<>();
        for (MethodNode m : cls.methods) {
            new Analyzer<>(new BasicVerifier()).analyze(cls.name, m);
            if (m.desc.contains("Ldev/weft/csp/Fiber;)")) {
                checksByMethod.put(m.name, checks(m));
            }
        }
        // drain() loops only while holding a monitor: no check there.
        assertEquals(Map.of("nested", 2L, "switchInLoop", 2L, "sum", 1L, "drain", 0L), checksByMethod);
    }

    @Test
    void loopsWithNoStackToSpareAreWovenWithAConsistentCheck() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of("dev/weft/csp/Fiber.java", FIBER, "app/Loops.java", LOOPS));
        Weaver weaver = new Weaver(ClassPath.open(List.of(classes)), true);

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
