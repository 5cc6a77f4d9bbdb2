package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;

/**
 * The shape of the code that saves a paused frame: each block that saves values makes room for all of them at
 * once ({@code Continuation.reserve}, with the counts of primitives and references, the site counted as a
 * reference) before its first value, and then puts exactly that many, with calls that check nothing. The locals
 * are saved by a class's {@code weft$save} methods, each one reserve; a pause block that saves operand stack
 * values reserves for them itself; a pause saving more than a method can take as parameters reserves inline.
 */
@Timeout(60)
class SaveReservesTest {
    private static final String CONT = "dev/weft/csp/abi/Continuation";
    private static final int WIDE = 130;

    @TempDir
    Path dir;

    @Test
    void eachSaveBlockReservesOnceForAllItPuts() throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17, Map.of("res.Res", source()));
        Map<String, byte[]> woven = ClassFiles.weave(ClassFiles.read(classes), classes);
        Map<String, Integer> reserves = new TreeMap<>();
        assertEquals(List.of(), saveProblems(woven.get("res/Res"), reserves));
        assertEquals(0, reserves.get("locals"), "locals only: the reserve is in weft$save");
        assertEquals(1, reserves.get("onStack"), "a long and a reference on the stack: one reserve for both");
        assertEquals(0, reserves.get("shared"), "two sites sharing their locals' block");
        assertTrue(reserves.get("wide") >= 1, WIDE + " longs, too many parameters: saved inline after a reserve");
        assertTrue(reserves.get("weft$save") >= 2, "the save methods: " + reserves);

        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            long[] result = new long[4];
            CSProcess program = (CSProcess) loader.loadClass("res.Res").getMethod("program", long[].class)
                    .invoke(null, (Object) result);
            for (int run = 0; run < 20; run++) {
                try (Scheduler s = run % 2 == 0 ? Scheduler.singleThreaded() : Scheduler.create(2)) {
                    Weft.run(s, program);
                }
                assertEquals(List.of(1L + 2 + 3 + 4 + 5 + 6 + 7, 8L * 3 + "x8y9".length(), 10L + 11,
                        WIDE * 14L + WIDE * (WIDE - 1) / 2 + 15), List.of(result[0], result[1], result[2], result[3]),
                        "run " + run);
            }
        }
    }

    /** Every woven class of csp-core itself has the same shape. */
    @Test
    void csp_coresOwnWovenClassesReserveTheSameWay() {
        Map<String, byte[]> classes = ClassFiles.read(ClassFiles.coreClasses());
        List<String> problems = new ArrayList<>();
        int saves = 0;
        for (byte[] classFile : classes.values()) {
            Map<String, Integer> reserves = new TreeMap<>();
            problems.addAll(saveProblems(classFile, reserves));
            saves += reserves.getOrDefault("weft$save", 0);
        }
        assertEquals(List.of(), problems);
        assertTrue(saves > 10, "csp-core's save methods: " + saves);
    }

    /**
     * Each value read is the next of a counter fed through a channel, so that every read pauses: {@code locals}
     * keeps many values of several types across a read, {@code onStack} a long and a string under the call,
     * {@code shared} the same locals at two reads, {@code wide} {@value #WIDE} longs. Where {@code in} is not used
     * after the last read, that pause saves the call's receiver: in the pause block, with the values on the stack.
     */
    private static String source() {
        StringBuilder wide = new StringBuilder();
        StringBuilder sum = new StringBuilder("0");
        for (int i = 0; i < WIDE; i++) {
            wide.append("        long w").append(i).append(" = base + ").append(i).append(";\n");
            sum.append(" + w").append(i);
        }
        return """
                package res;

                import dev.weft.csp.CSProcess;
                import dev.weft.csp.Channel;
                import dev.weft.csp.ChannelInput;
                import dev.weft.csp.One2OneChannel;
                import dev.weft.csp.Pausable;
                import dev.weft.csp.Weft;

                public class Res {
                    public static CSProcess program(long[] result) {
                        return () -> {
                            One2OneChannel<Long> c = Channel.one2one();
                            Weft.spawn(() -> feed(c));
                            result[0] = locals(c.in());
                            result[1] = onStack(c.in());
                            result[2] = shared(c.in());
                            result[3] = wide(c.in());
                        };
                    }

                    @Pausable
                    static void feed(One2OneChannel<Long> c) {
                        for (long i = 1; i <= 15; i++) {
                            c.out().write(i);
                        }
                    }

                    @Pausable
                    static long locals(ChannelInput<Long> in) {
                        long a = in.read();
                        double b = in.read();
                        int c = (int) (long) in.read();
                        float d = in.read();
                        Object e = in.read();
                        Long f = in.read();
                        long g = in.read();
                        return a + (long) b + c + (long) d + (Long) e + f + g + live(in);
                    }

                    @Pausable
                    static long onStack(ChannelInput<Long> in) {
                        long a = in.read();
                        String s = "x" + a;
                        return a * 3 + (s.concat("y") + in.read()).length();
                    }

                    @Pausable
                    static long shared(ChannelInput<Long> in) {
                        long a = in.read();
                        Object o = in.read();
                        in.read();
                        in.read();
                        return a + (Long) o + live(in);
                    }

                    /** 0, using {@code in} after the last read: that read's receiver is then a saved local. */
                    static long live(ChannelInput<Long> in) {
                        return in == null ? 1 : 0;
                    }

                    @Pausable
                    static long wide(ChannelInput<Long> in) {
                        long base = in.read();
                %s        return %s + in.read();
                    }
                }
                """.formatted(wide, sum);
    }

    /**
     * What is wrong with the save code of {@code classFile}'s methods: a put without room reserved before it in
     * its block, room left unused at the block's end, a second reserve before the first's room is used, a
     * {@code weft$save} without exactly one reserve, or a call of the checked pushes of former ABI versions.
     * Counts each method's reserves into {@code reserves}, by name.
     */
    static List<String> saveProblems(byte[] classFile, Map<String, Integer> reserves) {
        ClassNode cls = new ClassNode();
        new ClassReader(classFile).accept(cls, 0);
        List<String> problems = new ArrayList<>();
        if (cls.name.equals(CONT)) {
            return problems; // the ABI's own code
        }
        for (MethodNode m : cls.methods) {
            String where = cls.name + "." + m.name + m.desc;
            int prims = 0;
            int refs = 0;
            int count = 0;
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof MethodInsnNode call && call.owner.equals(CONT)) {
                    switch (call.name) {
                        case "reserve" -> {
                            if (prims != 0 || refs != 0) {
                                problems.add(where + ": a reserve before the room of the last one was used");
                            }
                            prims = constant(call, 3);
                            refs = constant(call, 2);
                            count++;
                        }
                        case "putInt", "putLong", "putFloat", "putDouble" -> prims--;
                        case "putRef", "putResume" -> refs--;
                        default -> {
                            if (call.name.startsWith("push") && !call.name.equals("pushResumeIfPausing")) {
                                problems.add(where + ": calls " + call.name);
                            }
                        }
                    }
                    if (prims < 0 || refs < 0) {
                        problems.add(where + ": " + call.name + " without room reserved");
                        prims = Math.max(prims, 0);
                        refs = Math.max(refs, 0);
                    }
                } else if (endsBlock(insn)) {
                    if (prims != 0 || refs != 0) {
                        problems.add(where + ": room for " + prims + " primitives and " + refs
                                + " references reserved and not used");
                    }
                    prims = 0;
                    refs = 0;
                }
            }
            if (m.name.equals("weft$save") && count != 1) {
                problems.add(where + ": " + count + " reserves");
            }
            reserves.merge(m.name, count, Integer::sum);
        }
        return problems;
    }

    private static boolean endsBlock(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        return insn instanceof JumpInsnNode || insn instanceof TableSwitchInsnNode
                || insn instanceof LookupSwitchInsnNode || op >= Opcodes.IRETURN && op <= Opcodes.RETURN
                || op == Opcodes.ATHROW;
    }

    /** The int constant {@code back} instructions before {@code insn} (the reserve's counts, then the fiber). */
    private static int constant(AbstractInsnNode insn, int back) {
        AbstractInsnNode i = insn;
        for (int k = 0; k < back; ) {
            i = i.getPrevious();
            if (i.getOpcode() >= 0) {
                k++;
            }
        }
        if (i instanceof InsnNode && i.getOpcode() >= Opcodes.ICONST_M1 && i.getOpcode() <= Opcodes.ICONST_5) {
            return i.getOpcode() - Opcodes.ICONST_0;
        }
        if (i instanceof IntInsnNode n) {
            return n.operand;
        }
        if (i instanceof LdcInsnNode l && l.cst instanceof Integer n) {
            return n;
        }
        throw new AssertionError("not an int constant before a reserve: opcode " + i.getOpcode());
    }
}
