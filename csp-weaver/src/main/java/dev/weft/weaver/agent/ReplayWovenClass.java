package dev.weft.weaver.agent;

import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.ModuleVisitor;
import net.bytebuddy.jar.asm.RecordComponentVisitor;
import net.bytebuddy.jar.asm.TypePath;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Puts the engine's woven class file in place of the class Byte Buddy is writing: the events Byte Buddy
 * reads from the original are dropped, and at the end the woven bytes are replayed into Byte Buddy's class
 * writer. The engine computed the stack map frames, so the writer is asked to compute nothing.
 */
final class ReplayWovenClass extends AsmVisitorWrapper.AbstractBase {
    private final byte[] woven;

    ReplayWovenClass(byte[] woven) {
        this.woven = woven;
    }

    @Override
    public ClassVisitor wrap(TypeDescription instrumentedType, ClassVisitor next, Implementation.Context context,
            TypePool typePool, FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods,
            int writerFlags, int readerFlags) {
        return new Sink(next);
    }

    /** Swallows the original class, then replays the woven one into {@code next}. */
    private final class Sink extends ClassVisitor {
        private final ClassVisitor next;

        Sink(ClassVisitor next) {
            super(OpenedClassReader.ASM_API);
            this.next = next;
        }

        // Non-null visitors that do nothing: Byte Buddy may expect a visitor back for what it forwards.
        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return new AnnotationVisitor(api) { };
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String descriptor, boolean visible) {
            return new AnnotationVisitor(api) { };
        }

        @Override
        public ModuleVisitor visitModule(String name, int access, String version) {
            return new ModuleVisitor(api) { };
        }

        @Override
        public RecordComponentVisitor visitRecordComponent(String name, String descriptor, String signature) {
            return new RecordComponentVisitor(api) { };
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            return new FieldVisitor(api) { };
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            return new MethodVisitor(api) { };
        }

        @Override
        public void visitEnd() {
            OpenedClassReader.of(woven).accept(next, 0);
        }
    }
}
