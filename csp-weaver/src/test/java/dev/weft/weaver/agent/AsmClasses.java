package dev.weft.weaver.agent;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.WeaveException;
import dev.weft.weaver.tool.ClassTransform;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Real class files for the agent tests, and a stand-in engine over them: a class with a method named
 * {@code pause*} is "woven" (a marker field and an extra method are added), one with a method {@code boom}
 * has an error, any other is returned as the same array.
 */
final class AsmClasses {
    static final String MARKER = "$weftWoven";

    private AsmClasses() {
    }

    /** A public class {@code internalName} from {@code Source.java} with {@code static int m() { return 7; }} per name. */
    static byte[] classWith(String internalName, String... methods) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        cw.visitSource(internalName.substring(internalName.lastIndexOf('/') + 1) + ".java", null);
        for (String m : methods) {
            constant(cw, m, 7);
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void constant(ClassVisitor cv, String name, int value) {
        code(cv.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, name, "()I", null, null), value);
    }

    private static void code(MethodVisitor mv, int value) {
        mv.visitCode();
        mv.visitIntInsn(Opcodes.BIPUSH, value);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitMaxs(1, 0);
        mv.visitEnd();
    }

    /** {@code classFile} with a static field {@code name} added, as another agent (say, JaCoCo) might. */
    static byte[] withField(byte[] classFile, String name) {
        ClassNode node = node(classFile);
        node.fields.add(new FieldNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, name, "I", null, null));
        ClassWriter cw = new ClassWriter(0);
        node.accept(cw);
        return cw.toByteArray();
    }

    static ClassNode node(byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        return node;
    }

    static boolean hasField(byte[] classFile, String name) {
        return node(classFile).fields.stream().anyMatch(f -> f.name.equals(name));
    }

    /** The stand-in engine; records what it was given. */
    static final class Engine implements ClassTransform {
        final AtomicInteger weaveCalls = new AtomicInteger();
        final List<byte[]> given = new ArrayList<>();

        @Override
        public boolean isWoven(byte[] classFile) {
            return hasField(classFile, MARKER);
        }

        @Override
        public synchronized byte[] weave(byte[] classFile) {
            weaveCalls.incrementAndGet();
            given.add(classFile);
            ClassNode node = node(classFile);
            List<String> names = node.methods.stream().map(m -> m.name).toList();
            if (names.contains("boom")) {
                throw new WeaveException(List.of(
                        new WeaveError(node.sourceFile, 42, node.name + ".boom()", "pausable call inside synchronized"),
                        new WeaveError(node.sourceFile, 43, node.name + ".boom()", "second problem")));
            }
            if (names.stream().noneMatch(n -> n.startsWith("pause"))) {
                return classFile;
            }
            node.fields.add(new FieldNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, MARKER, "I", null, null));
            MethodNode extra = new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "$weftExtra", "()I", null, null);
            code(extra, 42);
            node.methods.add(extra);
            ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            node.accept(cw);
            return cw.toByteArray();
        }
    }
}
