package dev.weft.weaver.realengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The debug information of woven code, read back from the class file: the save code of a call site is on the
 * call's line (a debugger stepping over a call that pauses stays there), its restore code, which comes before the
 * body, on the method's first line (a breakpoint on the call's line stops at the call), the woven form
 * keeps its local variable table, and it is not synthetic (coverage tools skip synthetic methods).
 */
class WovenDebugInfoTest {
    private static final String FIBER_DESC = "Ldev/weft/csp/Fiber;";
    static final String STEPS = """
            package app;

            import dev.weft.csp.Pausable;

            public class Steps {
                @Pausable
                public long sum(int n) {
                    long total = 0;
                    for (int i = 0; i < n; i++) {
                        int a = step(i);
                        total += a;
                        total += step(a) * 2L;
                    }
                    return total;
                }

                @Pausable
                int step(int x) {
                    return x + 1;
                }
            }
            """;
    /** The lines of the two calls of {@code step} in {@link #STEPS}. */
    private static final Set<Integer> CALL_LINES = Set.of(10, 12);

    @TempDir
    Path dir;

    private MethodNode wovenSum() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of("app/Steps.java", STEPS));
        byte[] woven;
        try (ClassPath cp = ClassPath.open(List.of(classes))) {
            woven = new Weaver(cp).weave(Files.readAllBytes(classes.resolve("app/Steps.class")));
        }
        ClassNode cls = new ClassNode();
        new ClassReader(woven).accept(cls, 0);
        return cls.methods.stream().filter(m -> m.name.equals("sum") && m.desc.equals("(I" + FIBER_DESC + ")J"))
                .findFirst().orElseThrow();
    }

    /** The line of the method's first instruction (its prelude). */
    private static int firstLine(MethodNode m, Map<AbstractInsnNode, Integer> lines) {
        for (AbstractInsnNode i : m.instructions) {
            if (i.getOpcode() >= 0) {
                return lines.get(i);
            }
        }
        throw new AssertionError("no instruction in " + m.name);
    }

    /** The line each instruction is attributed to, as the JVM's line number table maps it. */
    private static Map<AbstractInsnNode, Integer> lines(MethodNode m) {
        Map<LabelNode, Integer> starts = new HashMap<>();
        for (AbstractInsnNode i : m.instructions) {
            if (i instanceof LineNumberNode) {
                starts.put(((LineNumberNode) i).start, ((LineNumberNode) i).line);
            }
        }
        Map<AbstractInsnNode, Integer> lines = new HashMap<>();
        int line = -1;
        for (AbstractInsnNode i : m.instructions) {
            if (i instanceof LabelNode && starts.containsKey(i)) {
                line = starts.get(i);
            }
            if (i.getOpcode() >= 0) {
                lines.put(i, line);
            }
        }
        return lines;
    }

    @Test
    void theSaveCodeOfACallIsOnTheCallsLineItsRestoreCodeOnTheMethodsFirst() throws Exception {
        MethodNode sum = wovenSum();
        Map<AbstractInsnNode, Integer> lines = lines(sum);
        int pauses = 0;
        int resumes = 0;
        for (AbstractInsnNode i : sum.instructions) {
            if (i instanceof InvokeDynamicInsnNode && ((InvokeDynamicInsnNode) i).name.equals("pauseSite")) {
                // The pause block ends with the PauseSite of "app.Steps.sum(Steps.java:LINE)".
                String site = (String) ((InvokeDynamicInsnNode) i).bsmArgs[0];
                int line = Integer.parseInt(site.substring(site.lastIndexOf(':') + 1, site.length() - 1));
                assertTrue(CALL_LINES.contains(line), site);
                assertEquals(line, lines.get(i), "the pause block of the call at line " + line);
                pauses++;
            }
            if (i.getOpcode() == Opcodes.GOTO && isCallSiteLabel(((JumpInsnNode) i).label)) {
                MethodInsnNode call = callAfter(((JumpInsnNode) i).label);
                assertTrue(CALL_LINES.contains(lines.get(call)), "the call at " + lines.get(call));
                assertEquals(firstLine(sum, lines), lines.get(i), "the restore block of the call at " + lines.get(call)
                        + " is on the method's first line: resume code comes before the body, and a breakpoint on the"
                        + " call's line must stop at the call");
                resumes++;
            }
        }
        assertEquals(2, pauses);
        assertEquals(2, resumes);
        Set<Integer> used = new TreeSet<>(lines.values());
        assertFalse(used.contains(-1), "every instruction has a line: " + used);
        assertTrue(used.stream().allMatch(l -> l >= 8 && l <= 14), "no instruction on a line outside sum: " + used);
    }

    private static boolean isCallSiteLabel(LabelNode label) {
        return callAfter(label) != null;
    }

    /** The woven call a restore block jumps back to: the label, aload fiber, the call taking the fiber. */
    private static MethodInsnNode callAfter(LabelNode label) {
        AbstractInsnNode next = label.getNext();
        while (next != null && next.getOpcode() < 0) {
            next = next.getNext();
        }
        if (next == null || next.getOpcode() != Opcodes.ALOAD) {
            return null;
        }
        AbstractInsnNode call = next.getNext();
        return call instanceof MethodInsnNode && ((MethodInsnNode) call).desc.contains(FIBER_DESC + ")")
                ? (MethodInsnNode) call : null;
    }

    @Test
    void theWovenFormKeepsItsLocalVariablesAndIsNotSynthetic() throws Exception {
        MethodNode sum = wovenSum();
        assertNotNull(sum.localVariables);
        Set<String> names = sum.localVariables.stream().map(v -> v.name).collect(Collectors.toSet());
        assertTrue(names.containsAll(Set.of("this", "n", "total", "i", "a")), names.toString());
        LocalVariableNode total = sum.localVariables.stream().filter(v -> v.name.equals("total")).findFirst()
                .orElseThrow();
        assertEquals(3, total.index, "after this, n and the fiber");
        assertEquals(0, sum.access & Opcodes.ACC_SYNTHETIC);
    }
}
