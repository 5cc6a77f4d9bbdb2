package dev.weft.weaver;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.JSRInlinerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * Weaves one class, as a pipeline of phases over its tree: reading (subroutines inlined), the {@link Pausability}
 * analysis, the {@link RuleChecks}, then the rewriting: {@link LambdaRewriter} for pausable lambdas, a woven form
 * and a thread-mode bridge for each pausable method ({@link MethodWeaver} weaves its body), thread-mode calls in
 * plain methods, and the woven marker; last, writing with frames computed from the {@link ClassHierarchy}.
 * Every phase reports into one {@link ErrorSink}; the class is refused once all have run.
 */
final class ClassWeaver implements Opcodes {
    static final String WOVEN_MARKER = "Ldev/weft/csp/abi/Woven;";
    /** The marker of ABI versions 1 to 5, before the ABI had a package of its own. */
    static final String FORMER_WOVEN_MARKER = "Ldev/weft/csp/runtime/Woven;";

    private final ClassHierarchy hierarchy;
    private final byte[] input;
    private final boolean preemptive;
    private ClassNode cls;
    private ErrorSink errors;
    private Pausability pausability;
    private SaveMethods saves;

    ClassWeaver(ClassHierarchy hierarchy, byte[] input, boolean preemptive) {
        this.hierarchy = hierarchy;
        this.input = input;
        this.preemptive = preemptive;
    }

    static boolean isWoven(byte[] classFile) {
        return isWoven(new ClassReader(classFile));
    }

    private static boolean isWoven(ClassReader reader) {
        boolean[] found = new boolean[1];
        reader.accept(new ClassVisitor(ASM9) {
            @Override
            public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                found[0] |= WOVEN_MARKER.equals(desc) || FORMER_WOVEN_MARKER.equals(desc);
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found[0];
    }

    byte[] weave() {
        ClassReader reader = read();
        try {
            // ClassReader checks only the header and the constant pool up front: a class file cut short or
            // corrupt further on fails here, while it is read.
            if (isWoven(reader)) {
                return input;
            }
            cls = new ClassNode(ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                    MethodVisitor mn = super.visitMethod(access, name, desc, sig, exc);
                    return new JSRInlinerAdapter(mn, access, name, desc, sig, exc);
                }
            };
            reader.accept(cls, ClassReader.SKIP_FRAMES);
            hierarchy.put(ClassHierarchy.read(reader));
        } catch (RuntimeException e) {
            throw invalid(e);
        }
        errors = new ErrorSink(cls);
        pausability = new Pausability(cls, hierarchy, mentionsWeft(input), errors);
        RuleChecks checks = new RuleChecks(cls, hierarchy, pausability, errors);
        checks.checkOverrides();
        boolean threadModeCalls = checks.checkCalls();
        if (!pausability.hasWork() && !threadModeCalls && errors.isEmpty()) {
            return input;
        }
        transform(); // also when errors were found: it finds the rest (pauses inside synchronized blocks)
        errors.throwIfAny();
        return write();
    }

    private byte[] write() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return hierarchy.commonSuperClass(a, b);
            }
        };
        try {
            cls.accept(writer);
            return writer.toByteArray();
        } catch (MethodTooLargeException e) {
            MethodNode m = cls.methods.stream() // the woven form, under its woven descriptor
                    .filter(x -> x.name.equals(e.getMethodName()) && x.desc.equals(e.getDescriptor()))
                    .findFirst().orElse(null);
            String name = Names.method(cls.name, e.getMethodName());
            throw new WeaveException(new WeaveError(errors.sourceFile(), m == null ? 0 : ErrorSink.firstLine(m), name,
                    name + " is too large once woven (" + e.getCodeSize() + " bytes of code, the JVM allows 65535):"
                    + " split it into smaller methods"));
        } catch (ClassHierarchy.MissingClassException e) {
            throw new WeaveException(new WeaveError(errors.sourceFile(), 0, Names.simpleClass(cls.name), "cannot"
                    + " compute the stack map frames of " + Names.simpleClass(cls.name) + ": "
                    + RuleChecks.notFound(e)));
        } catch (ClassTooLargeException e) {
            throw new WeaveException(new WeaveError(errors.sourceFile(), 0, Names.simpleClass(cls.name),
                    Names.simpleClass(cls.name) + " is too large once woven (" + e.getConstantPoolCount()
                    + " constants): split it"));
        }
    }

    private ClassReader read() {
        // Without this check, garbage whose bytes 6-7 read as a high "major version" would be reported as a
        // class file too new for the weaver.
        int magic = input.length >= 4 ? ((input[0] & 0xff) << 24) | ((input[1] & 0xff) << 16)
                | ((input[2] & 0xff) << 8) | (input[3] & 0xff) : 0;
        if (magic != 0xCAFEBABE) {
            throw new WeaveException(new WeaveError("?", 0, "?",
                    "not a valid class file: it does not start with 0xCAFEBABE"));
        }
        int major = input.length >= 8 ? ((input[6] & 0xff) << 8) | (input[7] & 0xff) : -1;
        try {
            return new ClassReader(input);
        } catch (RuntimeException e) {
            if (String.valueOf(e.getMessage()).contains("Unsupported class file major version")) {
                throw new WeaveException(new WeaveError("?", 0, "?", "class file version " + major + " (Java "
                        + (major - 44) + ") is newer than this csp-weaver supports: upgrade csp-weaver"));
            }
            throw invalid(e);
        }
    }

    private static WeaveException invalid(RuntimeException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new WeaveException(new WeaveError("?", 0, "?", "not a valid class file (truncated or corrupt): " + why));
    }

    /**
     * Whether a class file mentions Weft's package anywhere (an annotation, a type, a descriptor). A class that
     * does not is library code compiled without Weft: it declares no pausable method, and the weaver assumes
     * that the types it uses but the weave classpath lacks (a library's optional dependencies) have none
     * either, so it copies such a class unchanged instead of refusing it. A class that does mention Weft may
     * call user types with pausable methods: a missing type is an error there.
     */
    static boolean mentionsWeft(byte[] classFile) {
        // Names are stored as (modified) UTF-8: an ASCII package name appears byte for byte.
        return new String(classFile, java.nio.charset.StandardCharsets.ISO_8859_1).contains("dev/weft/csp/");
    }

    // ---------------------------------------------------------------------------------- transform

    private void transform() {
        List<MethodNode> original = new ArrayList<>(cls.methods);
        new LambdaRewriter(cls, pausability, errors, this::weaveInPlace).rewriteAll();
        for (MethodNode m : original) {
            if (pausability.isLambdaBody(m)) {
                weaveInPlace(m);
            } else if (pausability.isPausable(m) && !pausability.isHandWoven(m)) {
                weaveMethod(m);
            } else if (!pausability.isPausable(m) && !m.name.startsWith("<")) {
                rewriteThreadModeCalls(m);
            }
        }
        if (cls.invisibleAnnotations == null) {
            cls.invisibleAnnotations = new ArrayList<>();
        }
        AnnotationNode marker = new AnnotationNode(WOVEN_MARKER);
        marker.values = new ArrayList<>(List.of("abi", Weaver.ABI_VERSION));
        if (preemptive) {
            marker.values.addAll(List.of("preemptive", Boolean.TRUE));
        }
        cls.invisibleAnnotations.add(marker);
    }

    /**
     * In a plain method, a call to a pausable interface method goes straight to its woven form with the
     * thread's own fiber: the implementation may be a lambda, which has only the woven form.
     */
    private void rewriteThreadModeCalls(MethodNode m) {
        for (AbstractInsnNode insn : m.instructions.toArray()) {
            if (insn instanceof MethodInsnNode) {
                MethodInsnNode call = (MethodInsnNode) insn;
                if (pausability.isPausableCall(call) && pausability.isInterfaceAbstract(call)) {
                    InsnList fiber = new InsnList();
                    fiber.add(new LdcInsnNode(pausability.calleeName(call)));
                    fiber.add(new MethodInsnNode(INVOKESTATIC, Abi.HAND_WOVEN, "forThread",
                            "(Ljava/lang/String;)" + Abi.FIBER_DESC, false));
                    m.instructions.insertBefore(call, fiber);
                    call.desc = Abi.wovenDesc(call.desc);
                }
            }
        }
    }

    /** The fiber's slot in {@code m}'s woven form: right after the declared parameters; -1 (reported) if none is left. */
    private int fiberSlot(MethodNode m) {
        int fiberSlot = ((m.access & ACC_STATIC) != 0 ? 0 : 1);
        for (Type t : Type.getArgumentTypes(m.desc)) {
            fiberSlot += t.getSize();
        }
        if (fiberSlot + 1 > 255) {
            errors.error(m, ErrorSink.firstLine(m), pausability.userMethod(m) + " has too many parameters to take"
                    + " its fiber (the JVM allows 255 parameter slots, this method uses " + fiberSlot + "): pass some"
                    + " of them in an object");
            return -1;
        }
        return fiberSlot;
    }

    /**
     * A lambda body or a method reference's adapter, which nothing calls by name: woven in place, its
     * descriptor taking the fiber.
     */
    private void weaveInPlace(MethodNode m) {
        int fiberSlot = fiberSlot(m);
        if (fiberSlot < 0) {
            return;
        }
        m.desc = Abi.wovenDesc(m.desc);
        m.signature = null;
        shiftLocals(m, fiberSlot);
        weaveBody(m, fiberSlot);
    }

    /** A pausable method gets a woven form beside it; its own signature becomes the thread-mode bridge. */
    private void weaveMethod(MethodNode m) {
        int fiberSlot = fiberSlot(m);
        if (fiberSlot < 0) {
            return;
        }
        // A woven form with code is not synthetic: it holds the method's lines, and coverage tools such as
        // JaCoCo skip synthetic methods (the bridge left under the original signature has no lines of its
        // own). An abstract one stays synthetic, hidden from javac: a woven interface stays functional, and
        // classes compiled against it need not implement it.
        int access = m.access & ~ACC_VARARGS;
        if ((m.access & ACC_ABSTRACT) != 0) {
            access |= ACC_SYNTHETIC;
        }
        MethodNode woven = new MethodNode(ASM9, access, m.name,
                Abi.wovenDesc(m.desc), null, m.exceptions.toArray(new String[0]));
        if ((m.access & ACC_ABSTRACT) == 0) {
            woven.instructions = m.instructions;
            woven.tryCatchBlocks = m.tryCatchBlocks;
            woven.localVariables = m.localVariables;
            woven.maxLocals = m.maxLocals;
            woven.maxStack = m.maxStack;
            shiftLocals(woven, fiberSlot);
            weaveBody(woven, fiberSlot);
            m.instructions = threadModeBridge(m);
            m.tryCatchBlocks = new ArrayList<>();
            m.localVariables = null;
        }
        cls.methods.add(cls.methods.indexOf(m) + 1, woven);
    }

    private void weaveBody(MethodNode m, int fiberSlot) {
        if (saves == null) {
            saves = new SaveMethods(cls);
        }
        try {
            new MethodWeaver(new MethodWeaver.ClassContext(cls, hierarchy, pausability, saves, errors), m, fiberSlot,
                    preemptive).weave();
        } catch (NewHoister.UnsupportedShapeException e) {
            errors.error(m, e.at, pausability.userMethod(m) + ": " + e.getMessage());
        } catch (AnalyzerException e) {
            errors.error(m, e.node, Names.method(cls.name, m.name) + ": cannot analyse the bytecode: " + e.getMessage()
                    + " (is the class file from a compiler the weaver does not know? weave the javac output)");
        }
    }

    /** Gives the fiber parameter its slot right after the declared parameters. */
    private static void shiftLocals(MethodNode m, int fiberSlot) {
        for (AbstractInsnNode insn : m.instructions) {
            if (insn instanceof VarInsnNode && ((VarInsnNode) insn).var >= fiberSlot) {
                ((VarInsnNode) insn).var++;
            } else if (insn instanceof IincInsnNode && ((IincInsnNode) insn).var >= fiberSlot) {
                ((IincInsnNode) insn).var++;
            }
        }
        if (m.localVariables != null) {
            for (LocalVariableNode v : m.localVariables) {
                if (v.index >= fiberSlot) {
                    v.index++;
                }
            }
        }
        m.maxLocals++;
    }

    /** The original signature's new body: run the woven form with the calling thread's own fiber. */
    private InsnList threadModeBridge(MethodNode m) {
        InsnList b = new InsnList();
        boolean isStatic = (m.access & ACC_STATIC) != 0;
        int slot = 0;
        if (!isStatic) {
            b.add(new VarInsnNode(ALOAD, 0));
            slot = 1;
        }
        for (Type t : Type.getArgumentTypes(m.desc)) {
            b.add(new VarInsnNode(t.getOpcode(ILOAD), slot));
            slot += t.getSize();
        }
        b.add(new MethodInsnNode(INVOKESTATIC, Abi.HAND_WOVEN, "forThread", "()" + Abi.FIBER_DESC, false));
        boolean itf = (cls.access & ACC_INTERFACE) != 0;
        int op = isStatic ? INVOKESTATIC : (m.access & ACC_PRIVATE) != 0 ? INVOKESPECIAL : itf ? INVOKEINTERFACE : INVOKEVIRTUAL;
        b.add(new MethodInsnNode(op, cls.name, m.name, Abi.wovenDesc(m.desc), itf));
        b.add(new InsnNode(Type.getReturnType(m.desc).getOpcode(IRETURN)));
        return b;
    }
}
