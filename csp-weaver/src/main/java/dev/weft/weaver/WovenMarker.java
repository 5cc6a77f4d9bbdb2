package dev.weft.weaver;

import static org.objectweb.asm.Opcodes.ASM9;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;

/**
 * The woven marker of a class file as found ({@code @Woven(abi, preemptive)}), with what an error about
 * it needs: the class and its source file.
 */
final class WovenMarker {
    boolean woven;
    /** The ABI version it was woven for; 0 if not woven. */
    int abi;
    boolean preemptive;
    String className;
    String sourceFile;

    private WovenMarker() {
    }

    static WovenMarker read(byte[] classFile) {
        WovenMarker m = new WovenMarker();
        new ClassReader(classFile).accept(new ClassVisitor(ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName,
                    String[] interfaces) {
                m.className = name;
                m.sourceFile = name.substring(name.lastIndexOf('/') + 1) + ".class";
            }

            @Override
            public void visitSource(String source, String debug) {
                if (source != null) {
                    m.sourceFile = source;
                }
            }

            @Override
            public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                if (!ClassWeaver.WOVEN_MARKER.equals(desc) && !ClassWeaver.FORMER_WOVEN_MARKER.equals(desc)) {
                    return null;
                }
                m.woven = true;
                return new AnnotationVisitor(ASM9) {
                    @Override
                    public void visit(String name, Object value) {
                        if (name.equals("preemptive")) {
                            m.preemptive = (Boolean) value;
                        } else if (name.equals("abi")) {
                            m.abi = (Integer) value;
                        }
                    }
                };
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        return m;
    }
}
