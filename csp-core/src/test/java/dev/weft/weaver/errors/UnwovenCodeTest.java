package dev.weft.weaver.errors;

import static dev.weft.weaver.errors.Snippets.compile;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Pausable code that was never woven fails with one clear message saying how to weave, not a VerifyError. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnwovenCodeTest {
    @TempDir
    Path out;

    private static final String READER = "package snip;\n"
            + "import dev.weft.csp.*;\n"
            + "public class Reader implements CSProcess {\n"
            + "    private final ChannelInput<Integer> in;\n"
            + "    public Reader(ChannelInput<Integer> in) {\n"
            + "        this.in = in;\n"
            + "    }\n"
            + "    @Override\n"
            + "    @Pausable\n"
            + "    public void run() {\n"
            + "        System.out.println(in.read());\n"
            + "    }\n"
            + "    public static CSProcess lambda(ChannelInput<Integer> in) {\n"
            + "        return () -> System.out.println(in.read());\n"
            + "    }\n"
            + "}\n";

    private Class<?> unwovenReader() throws Exception {
        compile(out, Map.of("Reader", READER));
        Map<String, byte[]> plain = new HashMap<>();
        plain.put("snip.Reader", Files.readAllBytes(out.resolve("snip/Reader.class")));
        return new Snippets.BytesLoader(plain).loadClass("snip.Reader");
    }

    private static void assertClearFailure(CSProcess p) {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Throwable t = assertThrows(Throwable.class, () -> Weft.run(s, p));
            assertFalse(t instanceof LinkageError, () -> "a clear message, not " + t);
            String m = String.valueOf(t.getMessage());
            assertTrue(m.toLowerCase().contains("weav"), () -> "says how to weave: " + m);
            assertTrue(m.contains("Reader"), () -> "names the unwoven class: " + m);
        }
    }

    @Test
    void unwovenProcessClassFailsClearly() throws Exception {
        One2OneChannel<Integer> ch = Channel.one2one();
        Class<?> reader = unwovenReader();
        assertClearFailure((CSProcess) reader.getConstructor(ChannelInput.class).newInstance(ch.in()));
    }

    @Test
    void unwovenPausableLambdaFailsClearly() throws Exception {
        One2OneChannel<Integer> ch = Channel.one2one();
        Class<?> reader = unwovenReader();
        assertClearFailure((CSProcess) reader.getMethod("lambda", ChannelInput.class).invoke(null, ch.in()));
    }

    /**
     * A process woven for another runtime ABI (here ABI 2's {@code Continuation.pushSite}, which this runtime no
     * longer has) fails naming the class and saying to weave again, not with a bare NoSuchMethodError.
     */
    @Test
    void codeWovenForAnotherRuntimeVersionFailsClearly() throws Exception {
        CSProcess p = wovenProcess("OldWoven", woven -> {
            woven.visitLdcInsn("snip.OldWoven.run(OldWoven.java:1)");
            woven.visitVarInsn(Opcodes.ALOAD, 1);
            woven.visitMethodInsn(Opcodes.INVOKESTATIC, "dev/weft/csp/abi/Continuation", "pushSite",
                    "(Ljava/lang/String;Ldev/weft/csp/abi/Continuation;)V", false);
        });
        try (Scheduler s = Scheduler.singleThreaded()) {
            Throwable t = assertThrows(IllegalStateException.class, () -> Weft.run(s, p));
            String m = t.getMessage();
            assertTrue(m.contains("snip.OldWoven") && m.contains("another version of csp-weaver")
                    && m.contains("pushSite"), () -> "names the class, the cause and the cure: " + m);
        }
    }

    /**
     * A process woven for ABI 4, whose pause sites had no count of saved references: its bootstrap method, or
     * for pre-Java-7 class files its {@code PauseSite.of}, no longer exists. Each fails naming the class and
     * saying to weave again, not with a bare BootstrapMethodError or NoSuchMethodError.
     */
    @Test
    void pauseSitesOfTheLastRuntimeVersionFailClearly() throws Exception {
        for (boolean indy : new boolean[] {true, false}) {
            String site = "dev/weft/csp/abi/PauseSite";
            CSProcess p = wovenProcess("Abi4", woven -> {
                if (indy) {
                    woven.visitInvokeDynamicInsn("pauseSite", "()L" + site + ";", new Handle(Opcodes.H_INVOKESTATIC,
                            site, "bootstrap", "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
                                    + "Ljava/lang/invoke/MethodType;Ljava/lang/String;I)Ljava/lang/invoke/CallSite;",
                            false), "snip.Abi4.run(Abi4.java:1)", 0);
                } else {
                    woven.visitLdcInsn("snip.Abi4.run(Abi4.java:1)");
                    woven.visitInsn(Opcodes.ICONST_0);
                    woven.visitMethodInsn(Opcodes.INVOKESTATIC, site, "of", "(Ljava/lang/String;I)L" + site + ";",
                            false);
                }
                woven.visitInsn(Opcodes.POP);
            });
            try (Scheduler s = Scheduler.singleThreaded()) {
                Throwable t = assertThrows(IllegalStateException.class, () -> Weft.run(s, p));
                String m = t.getMessage();
                assertTrue(m.contains("snip.Abi4") && m.contains("another version of csp-weaver")
                        && m.contains("PauseSite"), () -> (indy ? "indy: " : "of: ") + m);
            }
        }
    }

    /**
     * A process woven for ABI 5, before the ABI had a package of its own: its calls to {@code Fiber}'s hand-woven
     * forms and to its thread-mode entry fail naming the class and saying to weave again. (Its reads of
     * {@code runtime.Continuation.mode} fail earlier, as the JVM verifies the class, where its user loads it.)
     */
    @Test
    void codeWovenBeforeTheAbiHadItsOwnPackageFailsClearly() throws Exception {
        String fiber = "Ldev/weft/csp/Fiber;";
        CSProcess yields = wovenProcess("Abi5Yield", woven -> {
            woven.visitVarInsn(Opcodes.ALOAD, 1);
            woven.visitMethodInsn(Opcodes.INVOKESTATIC, "dev/weft/csp/Fiber", "yield", "(" + fiber + ")V", false);
        });
        CSProcess bridges = wovenProcess("Abi5Bridge", woven -> {
            woven.visitMethodInsn(Opcodes.INVOKESTATIC, "dev/weft/csp/Fiber", "forThread", "()" + fiber, false);
            woven.visitInsn(Opcodes.POP);
        });
        for (CSProcess p : List.of(yields, bridges)) {
            try (Scheduler s = Scheduler.singleThreaded()) {
                Throwable t = assertThrows(IllegalStateException.class, () -> Weft.run(s, p));
                String m = t.getMessage();
                assertTrue(m.contains(p.getClass().getName()) && m.contains("another version of csp-weaver"),
                        () -> "names the class and says to weave again: " + m);
            }
        }
    }

    /**
     * A process class {@code snip.NAME} as a weaver would have written it: {@code run()}, and {@code run(Fiber)}
     * made of {@code body} and a return; loaded and instantiated.
     */
    private static CSProcess wovenProcess(String name, Consumer<MethodVisitor> body) throws Exception {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "snip/" + name, null, "java/lang/Object",
                new String[] {"dev/weft/csp/CSProcess"});
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor plain = cw.visitMethod(Opcodes.ACC_PUBLIC, "run", "()V", null, null);
        plain.visitInsn(Opcodes.RETURN);
        plain.visitMaxs(0, 0);
        plain.visitEnd();
        MethodVisitor woven = cw.visitMethod(Opcodes.ACC_PUBLIC, "run", "(Ldev/weft/csp/Fiber;)V", null, null);
        body.accept(woven);
        woven.visitInsn(Opcodes.RETURN);
        woven.visitMaxs(0, 0);
        woven.visitEnd();
        cw.visitEnd();
        return (CSProcess) new Snippets.BytesLoader(Map.of("snip." + name, cw.toByteArray()))
                .loadClass("snip." + name).getConstructor().newInstance();
    }
}
