package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A pausable call after which its method returns at once (its value, or nothing) records its pause site without
 * a branch on the fiber's mode: the woven method reads the mode only in its prelude. Such calls of every shape
 * (static, on {@code this}, through a conditional's {@code goto}, with the value dropped) pause and resume many
 * times, return what they return unwoven, and let their processes end; a call followed by more work keeps its
 * test.
 */
@Timeout(60)
class TailCallsTest {
    private static final String SOURCE = """
            package tail;

            import dev.weft.csp.CSProcess;
            import dev.weft.csp.Channel;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Weft;

            public class Tail {
                private final ChannelInput<Integer> in;

                Tail(ChannelInput<Integer> in) {
                    this.in = in;
                }

                public static CSProcess program(int[] result) {
                    return () -> {
                        One2OneChannel<Integer> c = Channel.one2one();
                        Weft.spawn(() -> write(c, 9));
                        Tail t = new Tail(c.in());
                        result[0] = sum(t, true);
                        result[1] = sum(t, false);
                        result[2] = t.viaThis();
                        dropped(t);
                        result[3] = t.in.read();
                    };
                }

                @Pausable
                static void write(One2OneChannel<Integer> c, int n) {
                    for (int i = 1; i <= n; i++) {
                        c.out().write(i);
                    }
                }

                @Pausable
                static int sum(Tail t, boolean firstTwo) {
                    return firstTwo ? pair(t) : triple(t);
                }

                @Pausable
                static int pair(Tail t) {
                    return t.in.read() * 10 + t.in.read();
                }

                @Pausable
                static int triple(Tail t) {
                    return t.in.read() * 100 + pair(t);
                }

                @Pausable
                int viaThis() {
                    return next();
                }

                @Pausable
                int next() {
                    return in.read() + 1;
                }

                @Pausable
                static void dropped(Tail t) {
                    pair(t);
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void tailCallsRecordTheirSiteWithoutATestAndResumeRight() throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17, Map.of("tail.Tail", SOURCE));
        Map<String, byte[]> woven = ClassFiles.weave(ClassFiles.read(classes), classes);

        Map<String, Integer> modeReads = modeReads(woven.get("tail/Tail"));
        assertEquals(1, modeReads.get("sum"), "a call in either branch of a conditional return: the prelude only");
        assertEquals(1, modeReads.get("viaThis"), "a call on this");
        assertEquals(1, modeReads.get("dropped"), "a call whose value is dropped");
        assertEquals(3, modeReads.get("triple"), "the prelude and the first call, then a tail call in an expression: "
                + "not a tail call");
        assertEquals(3, modeReads.get("pair"), "the prelude and two calls with work after them");

        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            int[] result = new int[4];
            CSProcess program = (CSProcess) loader.loadClass("tail.Tail").getMethod("program", int[].class)
                    .invoke(null, (Object) result);
            for (int run = 0; run < 20; run++) {
                try (Scheduler s = run % 2 == 0 ? Scheduler.singleThreaded() : Scheduler.create(2)) {
                    Weft.run(s, program);
                }
                assertEquals(List.of(12, 345, 7, 9), List.of(result[0], result[1], result[2], result[3]),
                        "run " + run);
            }
        }
    }

    /** How many times each woven method (the one taking the fiber) reads the fiber's mode. */
    private static Map<String, Integer> modeReads(byte[] classFile) {
        ClassNode cls = new ClassNode();
        new ClassReader(classFile).accept(cls, 0);
        Map<String, Integer> reads = new TreeMap<>();
        for (MethodNode m : cls.methods) {
            if (!m.desc.contains("Ldev/weft/csp/Fiber;)")) {
                continue;
            }
            int n = 0;
            for (AbstractInsnNode insn : m.instructions) {
                if (insn.getOpcode() == Opcodes.GETFIELD && ((FieldInsnNode) insn).name.equals("mode")) {
                    n++;
                }
            }
            reads.put(m.name, n);
        }
        return reads;
    }
}
