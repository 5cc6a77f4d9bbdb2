package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * A reference restored as it resumes is cast back to its class or array type, never to an interface: the
 * verifier lets any reference stand for an interface, the value is the one saved from that very slot, and a cast
 * to an interface searches the object's interfaces (on JDK 17 at every resume, in unoptimised code, once the
 * object is also cast to another interface). Locals of interface, class and array types, and a receiver of an
 * interface type, come back intact over many pauses; the woven class verifies.
 */
@Timeout(60)
class RestoredReferencesTest {
    private static final String SOURCE = """
            package restore;

            import dev.weft.csp.CSProcess;
            import dev.weft.csp.Channel;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Weft;
            import java.util.ArrayList;
            import java.util.List;

            public class Restore {
                public static CSProcess program(String[] result) {
                    return () -> {
                        One2OneChannel<Integer> c = Channel.one2one();
                        Weft.spawn(() -> {
                            for (int i = 1; i <= 6; i++) {
                                c.out().write(i);
                            }
                        });
                        result[0] = gather(c.in(), new ArrayList<>(), new StringBuilder(), new CharSequence[] {"a"});
                    };
                }

                @Pausable
                static String gather(ChannelInput<Integer> in, List<Integer> list, StringBuilder text,
                        CharSequence[] names) {
                    CharSequence name = names[0];
                    for (int i = 0; i < 3; i++) {
                        list.add(in.read());
                        text.append(name).append(in.read());
                    }
                    return list + " " + text + " " + names.length + name.length();
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void restoredReferencesAreCastToClassesAndArraysOnly() throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17, Map.of("restore.Restore", SOURCE));
        Map<String, byte[]> woven = ClassFiles.weave(ClassFiles.read(classes), classes);

        assertEquals(Set.of("[Ljava/lang/CharSequence;", "java/lang/StringBuilder"),
                castsAfterRestore(woven.get("restore/Restore"), "gather"),
                "casts of references restored in gather: none to ChannelInput, List or CharSequence");

        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            String[] result = new String[1];
            CSProcess program = (CSProcess) loader.loadClass("restore.Restore").getMethod("program", String[].class)
                    .invoke(null, (Object) result);
            for (int run = 0; run < 20; run++) {
                result[0] = null;
                try (Scheduler s = run % 2 == 0 ? Scheduler.singleThreaded() : Scheduler.create(2)) {
                    Weft.run(s, program);
                }
                assertEquals("[1, 3, 5] a2a4a6 11", result[0], "run " + run);
            }
        }
    }

    /** The types that the woven form of {@code method} casts a reference to right after popping it. */
    private static Set<String> castsAfterRestore(byte[] classFile, String method) {
        ClassNode cls = new ClassNode();
        new ClassReader(classFile).accept(cls, 0);
        Set<String> casts = new TreeSet<>();
        for (MethodNode m : cls.methods) {
            if (!m.name.equals(method) || !m.desc.contains("Ldev/weft/csp/Fiber;)")) {
                continue;
            }
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof MethodInsnNode call && call.name.equals("popRef")
                        && insn.getNext().getOpcode() == Opcodes.CHECKCAST) {
                    casts.add(((TypeInsnNode) insn.getNext()).desc);
                }
            }
        }
        return casts;
    }
}
