package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;

/**
 * The resume code of a woven method jumps only forward: a woven method has exactly as many backward jumps as the
 * method it was woven from (its own loops). HotSpot counts every backward jump as a pass of a loop and gives its
 * C2 compiler the methods with the most loop passes first; a resume that jumped back to its call made each woven
 * method look like a hot loop, so C2 compiled woven code before the scheduler's loop and the channels. Methods
 * with one call, many calls, shared saved locals and a loop pause and resume many times and compute what they
 * compute unwoven.
 */
@Timeout(60)
class ForwardResumeJumpsTest {
    private static final String SOURCE = """
            package fwd;

            import dev.weft.csp.CSProcess;
            import dev.weft.csp.Channel;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Weft;

            public class Fwd {
                public static CSProcess program(long[] result) {
                    return () -> {
                        One2OneChannel<Integer> c = Channel.one2one();
                        Weft.spawn(() -> write(c, 12));
                        ChannelInput<Integer> in = c.in();
                        result[0] = one(in);
                        result[1] = many(in, 3);
                        result[2] = shared(in, 5L);
                        result[3] = loop(in, 4);
                    };
                }

                @Pausable
                static void write(One2OneChannel<Integer> c, int n) {
                    for (int i = 1; i <= n; i++) {
                        c.out().write(i);
                    }
                }

                @Pausable
                static int one(ChannelInput<Integer> in) {
                    return in.read() + 1;
                }

                @Pausable
                static int many(ChannelInput<Integer> in, int k) {
                    int a = in.read();
                    int b = in.read() * k;
                    String s = "x" + in.read();
                    return a + b + s.length() + in.read();
                }

                @Pausable
                static long shared(ChannelInput<Integer> in, long base) {
                    long t = base;
                    t += in.read();
                    t *= in.read();
                    t -= in.read();
                    return t;
                }

                @Pausable
                static int loop(ChannelInput<Integer> in, int n) {
                    int sum = 0;
                    for (int i = 0; i < n; i++) {
                        sum += in.read() * i;
                    }
                    return sum;
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void resumeCodeJumpsOnlyForwardAndResumesRight() throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17, Map.of("fwd.Fwd", SOURCE));
        Map<String, byte[]> plain = ClassFiles.read(classes);
        Map<String, byte[]> woven = ClassFiles.weave(plain, classes);

        Map<String, Integer> before = backwardJumps(plain.get("fwd/Fwd"), false);
        Map<String, Integer> after = backwardJumps(woven.get("fwd/Fwd"), true);
        for (String m : List.of("one", "many", "shared", "loop", "write")) {
            assertEquals(before.get(m), after.get(m), m + ": its woven form has backward jumps of its own");
        }
        assertEquals(0, after.get("one"), "no loop, no backward jump");
        assertEquals(1, after.get("loop"), "the loop keeps its one backward jump");

        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            long[] result = new long[4];
            CSProcess program = (CSProcess) loader.loadClass("fwd.Fwd").getMethod("program", long[].class)
                    .invoke(null, (Object) result);
            for (int run = 0; run < 20; run++) {
                try (Scheduler s = run % 2 == 0 ? Scheduler.singleThreaded() : Scheduler.create(2)) {
                    Weft.run(s, program);
                }
                // one: 1 + 1; many: 2 + 3 * 3 + "x4".length() + 5; shared: ((5 + 6) * 7) - 8; loop: 9*0 + 10*1 + 11*2 + 12*3
                assertEquals(List.of(2L, 18L, 69L, 68L), List.of(result[0], result[1], result[2], result[3]),
                        "run " + run);
            }
        }
    }

    /** Backward jumps (to an earlier instruction) of each method: the woven forms (taking the fiber) or the others. */
    private static Map<String, Integer> backwardJumps(byte[] classFile, boolean woven) {
        ClassNode cls = new ClassNode();
        new ClassReader(classFile).accept(cls, 0);
        Map<String, Integer> jumps = new TreeMap<>();
        for (MethodNode m : cls.methods) {
            if (m.name.startsWith("lambda$") || m.name.startsWith("<")
                    || m.desc.contains("Ldev/weft/csp/Fiber;)") != woven) {
                continue;
            }
            InsnList code = m.instructions;
            int n = 0;
            for (AbstractInsnNode insn : code) {
                List<LabelNode> targets = new ArrayList<>();
                if (insn instanceof JumpInsnNode) {
                    targets.add(((JumpInsnNode) insn).label);
                } else if (insn instanceof TableSwitchInsnNode) {
                    targets.add(((TableSwitchInsnNode) insn).dflt);
                    targets.addAll(((TableSwitchInsnNode) insn).labels);
                } else if (insn instanceof LookupSwitchInsnNode) {
                    targets.add(((LookupSwitchInsnNode) insn).dflt);
                    targets.addAll(((LookupSwitchInsnNode) insn).labels);
                }
                for (LabelNode target : targets) {
                    if (code.indexOf(target) < code.indexOf(insn)) {
                        n++;
                    }
                }
            }
            jumps.put(m.name, n);
        }
        return jumps;
    }
}
