package dev.weft.weaver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Collections;
import java.util.Comparator;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.commons.JSRInlinerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * Weaves one class: decides which methods are pausable, checks the rules (override agreement, no pause in
 * constructors, static initialisers or monitors; each refusal says how to fix it), then gives
 * each pausable method its resumable form and rewrites lambdas of pausable functional interfaces.
 */
final class ClassWeaver implements Opcodes {
    static final String WOVEN_MARKER = "Ldev/weft/csp/abi/Woven;";
    /** The marker of ABI versions 1 to 5, before the ABI had a package of its own. */
    static final String FORMER_WOVEN_MARKER = "Ldev/weft/csp/runtime/Woven;";
    private static final String FIBER = MethodWeaver.FIBER;
    private static final String FIBER_DESC = MethodWeaver.FIBER_DESC;
    private static final String LMF = "java/lang/invoke/LambdaMetafactory";

    private final ClassHierarchy hierarchy;
    private final byte[] input;
    private final List<WeaveError> errors = new ArrayList<>();
    private ClassNode cls;
    private final Map<String, MethodNode> byKey = new HashMap<>();
    private final Set<MethodNode> pausable = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MethodNode> handWoven = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MethodNode> lambdaBodies = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<IndySite> pausableIndys = new ArrayList<>();
    /** Every lambda body of this class, with the method that creates it. */
    private final Map<MethodNode, MethodNode> lambdaCreator = new IdentityHashMap<>();
    private int adapters;
    private SaveMethods saves;

    private record IndySite(MethodNode in, InvokeDynamicInsnNode indy) {
    }

    private final boolean preemptive;
    /** Whether the class mentions Weft at all; if not, types missing from the weave classpath are no error. */
    private final boolean usesWeft;

    ClassWeaver(ClassHierarchy hierarchy, byte[] input, boolean preemptive) {
        this.hierarchy = hierarchy;
        this.input = input;
        this.preemptive = preemptive;
        this.usesWeft = mentionsWeft(input);
    }

    ClassHierarchy hierarchy() {
        return hierarchy;
    }

    /** The class's out-of-line save methods, made as woven methods ask for them. */
    SaveMethods saves() {
        if (saves == null) {
            saves = new SaveMethods(cls);
        }
        return saves;
    }

    static String wovenDesc(String desc) {
        int close = desc.indexOf(')');
        return desc.substring(0, close) + FIBER_DESC + desc.substring(close);
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
        for (MethodNode m : cls.methods) {
            byKey.put(m.name + m.desc, m);
        }
        findPausable();
        checkOverrides();
        boolean threadModeCalls = checkCalls();
        boolean toWeave = pausable.size() > handWoven.size() || !pausableIndys.isEmpty() || threadModeCalls;
        if (!toWeave && errors.isEmpty()) {
            return input;
        }
        transform(); // also when errors were found: it finds the rest (pauses inside synchronized blocks)
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparingInt(WeaveError::line));
            throw new WeaveException(errors);
        }
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
            MethodNode m = cls.methods.stream() // the woven form, whose descriptor byKey does not hold
                    .filter(x -> x.name.equals(e.getMethodName()) && x.desc.equals(e.getDescriptor()))
                    .findFirst().orElse(null);
            String name = Names.method(cls.name, e.getMethodName());
            throw new WeaveException(new WeaveError(sourceFile(), m == null ? 0 : firstLine(m), name, name
                    + " is too large once woven (" + e.getCodeSize() + " bytes of code, the JVM allows 65535):"
                    + " split it into smaller methods"));
        } catch (ClassHierarchy.MissingClassException e) {
            throw new WeaveException(new WeaveError(sourceFile(), 0, Names.simpleClass(cls.name), "cannot compute the"
                    + " stack map frames of " + Names.simpleClass(cls.name) + ": " + notFound(e)));
        } catch (ClassTooLargeException e) {
            throw new WeaveException(new WeaveError(sourceFile(), 0, Names.simpleClass(cls.name),
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

    // ------------------------------------------------------------------------- which methods pause

    private static boolean annotatedPausable(MethodNode m) {
        return hasPausable(m.visibleAnnotations) || hasPausable(m.invisibleAnnotations);
    }

    private static boolean hasPausable(List<AnnotationNode> annotations) {
        if (annotations != null) {
            for (AnnotationNode a : annotations) {
                if (ClassHierarchy.PAUSABLE.equals(a.desc)) {
                    return true;
                }
            }
        }
        return false;
    }

    private void findPausable() {
        for (MethodNode m : cls.methods) {
            if (annotatedPausable(m)) {
                pausable.add(m);
                if (byKey.containsKey(m.name + wovenDesc(m.desc))) {
                    handWoven.add(m); // the runtime's primitives come with their woven form written by hand
                }
            }
        }
        splitSharedLambdaBodies();
        for (MethodNode m : cls.methods) {
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof InvokeDynamicInsnNode && isLambda((InvokeDynamicInsnNode) insn)) {
                    classifyLambda(m, (InvokeDynamicInsnNode) insn);
                }
            }
        }
        // Bridges and accessors (javac's synthetic forwarders) pause when what they forward to does.
        for (MethodNode m : cls.methods) {
            if ((m.access & (ACC_BRIDGE | ACC_SYNTHETIC)) != 0 && !lambdaBodies.contains(m) && !pausable.contains(m)
                    && callsPausableOwn(m)) {
                pausable.add(m);
            }
        }
    }

    /**
     * javac may give identical lambdas one body (it does without debug information, {@code -g:none}). A body
     * shared by a lambda of a pausable interface and one of a plain interface needs both forms: the pausable
     * lambdas get a copy of it, {@code lambda$main$0$pausable}, woven as their own.
     */
    private void splitSharedLambdaBodies() {
        Map<MethodNode, List<InvokeDynamicInsnNode>> pausableUses = new IdentityHashMap<>();
        Set<MethodNode> plainUses = Collections.newSetFromMap(new IdentityHashMap<>());
        for (MethodNode m : cls.methods) {
            for (AbstractInsnNode insn : m.instructions) {
                if (!(insn instanceof InvokeDynamicInsnNode) || !isLambda((InvokeDynamicInsnNode) insn)) {
                    continue;
                }
                InvokeDynamicInsnNode indy = (InvokeDynamicInsnNode) insn;
                MethodNode body = lambdaBody(indy);
                if (body == null) {
                    continue;
                }
                try {
                    if (isPausableMethod(Type.getReturnType(indy.desc).getInternalName(), indy.name,
                            ((Type) indy.bsmArgs[0]).getDescriptor())) {
                        pausableUses.computeIfAbsent(body, b -> new ArrayList<>()).add(indy);
                    } else {
                        plainUses.add(body);
                    }
                } catch (ClassHierarchy.MissingClassException e) {
                    // reported when the lambda is classified
                }
            }
        }
        pausableUses.forEach((body, indys) -> {
            if (plainUses.contains(body)) {
                MethodNode copy = copyOf(body, body.name + "$pausable");
                cls.methods.add(cls.methods.indexOf(body) + 1, copy);
                byKey.put(copy.name + copy.desc, copy);
                for (InvokeDynamicInsnNode indy : indys) {
                    Handle impl = (Handle) indy.bsmArgs[1];
                    indy.bsmArgs[1] = new Handle(impl.getTag(), impl.getOwner(), copy.name, impl.getDesc(),
                            impl.isInterface());
                }
            }
        });
    }

    /** The synthetic body in this class that a lambda's invokedynamic names, or null (a method reference). */
    private MethodNode lambdaBody(InvokeDynamicInsnNode indy) {
        Handle impl = (Handle) indy.bsmArgs[1];
        MethodNode body = impl.getOwner().equals(cls.name) ? byKey.get(impl.getName() + impl.getDesc()) : null;
        return body != null && (body.access & ACC_SYNTHETIC) != 0 && body.name.startsWith("lambda$") ? body : null;
    }

    /** A copy of {@code m} under another name, with labels of its own. */
    private static MethodNode copyOf(MethodNode m, String name) {
        MethodNode copy = new MethodNode(ASM9, m.access, name, m.desc, m.signature,
                m.exceptions.toArray(new String[0]));
        Map<LabelNode, LabelNode> labels = new HashMap<>();
        for (AbstractInsnNode insn : m.instructions) {
            if (insn instanceof LabelNode) {
                labels.put((LabelNode) insn, new LabelNode());
            }
        }
        for (AbstractInsnNode insn : m.instructions) {
            copy.instructions.add(insn.clone(labels));
        }
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            copy.tryCatchBlocks.add(new TryCatchBlockNode(labels.get(t.start), labels.get(t.end),
                    labels.get(t.handler), t.type));
        }
        if (m.localVariables != null) {
            copy.localVariables = new ArrayList<>();
            for (LocalVariableNode v : m.localVariables) {
                copy.localVariables.add(new LocalVariableNode(v.name, v.desc, v.signature, labels.get(v.start),
                        labels.get(v.end), v.index));
            }
        }
        copy.maxStack = m.maxStack;
        copy.maxLocals = m.maxLocals;
        return copy;
    }

    private static boolean isLambda(InvokeDynamicInsnNode indy) {
        return indy.bsm.getOwner().equals(LMF) && indy.bsmArgs.length >= 3 && indy.bsmArgs[1] instanceof Handle;
    }

    private void classifyLambda(MethodNode in, InvokeDynamicInsnNode indy) {
        String fi = Type.getReturnType(indy.desc).getInternalName();
        String samDesc = ((Type) indy.bsmArgs[0]).getDescriptor();
        boolean fiPausable;
        try {
            fiPausable = isPausableMethod(fi, indy.name, samDesc);
        } catch (ClassHierarchy.MissingClassException e) {
            if (usesWeft) {
                error(in, indy, Names.method(cls.name, in.name) + " creates a " + Names.simpleClass(fi) + " but "
                        + notFound(e));
                return;
            }
            fiPausable = false; // see usesWeft
        }
        MethodNode body = lambdaBody(indy);
        boolean isLambdaBody = body != null;
        if (isLambdaBody) {
            lambdaCreator.put(body, in);
        }
        if (fiPausable) {
            pausableIndys.add(new IndySite(in, indy));
            if (isLambdaBody) {
                pausable.add(body);
                lambdaBodies.add(body);
            }
        }
    }

    private boolean callsPausableOwn(MethodNode forwarder) {
        for (AbstractInsnNode insn : forwarder.instructions) {
            if (insn instanceof MethodInsnNode) {
                MethodInsnNode c = (MethodInsnNode) insn;
                MethodNode target = c.owner.equals(cls.name) ? byKey.get(c.name + c.desc) : null;
                if (target != null && target != forwarder && pausable.contains(target)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code owner.name desc} is a pausable method, as declared or inherited. */
    private boolean isPausableMethod(String owner, String name, String desc) {
        if (isJdk(owner) || owner.startsWith("[")) {
            return false;
        }
        if (owner.equals(cls.name)) {
            MethodNode own = byKey.get(name + desc);
            if (own != null) {
                return pausable.contains(own);
            }
        }
        ClassHierarchy.MethodInfo m = hierarchy.resolve(owner, name, desc);
        if (m != null && m.owner().equals(cls.name)) {
            MethodNode own = byKey.get(name + desc);
            return own != null && pausable.contains(own);
        }
        return m != null && m.pausable();
    }

    private static boolean isJdk(String owner) {
        return owner.startsWith("java/") || owner.startsWith("javax/") || owner.startsWith("jdk/")
                || owner.startsWith("sun/") || owner.startsWith("com/sun/");
    }

    /** Whether this call reaches a pausable method (used by {@link MethodWeaver}). */
    boolean isPausableCall(MethodInsnNode call) {
        if (call.name.startsWith("<")) {
            return false;
        }
        try {
            return isPausableMethod(call.owner, call.name, call.desc);
        } catch (ClassHierarchy.MissingClassException e) {
            return false; // reported by checkCalls
        }
    }

    String calleeName(MethodInsnNode call) {
        String owner = call.owner;
        try {
            ClassHierarchy.MethodInfo m = isJdk(owner) ? null : hierarchy.resolve(owner, call.name, call.desc);
            if (m != null) {
                owner = m.owner();
            }
        } catch (ClassHierarchy.MissingClassException e) {
            // keep the call's owner
        }
        return Names.method(owner, call.name);
    }

    // ------------------------------------------------------------------------------------- checks

    private void checkOverrides() {
        ClassHierarchy.ClassInfo self = hierarchy.get(cls.name);
        for (MethodNode m : cls.methods) {
            if ((m.access & (ACC_STATIC | ACC_PRIVATE | ACC_SYNTHETIC | ACC_BRIDGE)) != 0 || m.name.startsWith("<")
                    || m.desc.contains(FIBER_DESC + ")")) {
                continue;
            }
            List<ClassHierarchy.MethodInfo> overridden = new ArrayList<>();
            try {
                hierarchy.collectOverridden(self, m.name, m.desc, overridden);
            } catch (ClassHierarchy.MissingClassException e) {
                if (usesWeft) {
                    error(m, null, Names.method(cls.name, m.name) + ": supertype " + Names.simpleClass(e.className)
                            + " is missing: " + notFound(e));
                }
                continue;
            }
            boolean mine = pausable.contains(m);
            for (ClassHierarchy.MethodInfo o : overridden) {
                if (o.pausable() != mine) {
                    String other = Names.method(o.owner(), o.name());
                    error(m, firstLine(m), mine
                            ? Names.method(cls.name, m.name) + " is @Pausable but overrides " + other
                              + ", which is not @Pausable" + Names.OVERRIDE_PLAIN_FIX
                            : Names.method(cls.name, m.name) + " is not @Pausable but overrides pausable " + other
                              + Names.OVERRIDE_PAUSABLE_FIX);
                    break;
                }
            }
        }
    }

    /** Checks every pausable call outside pausable methods; returns whether any is a thread-mode call to rewrite. */
    private boolean checkCalls() {
        boolean threadMode = false;
        for (MethodNode m : cls.methods) {
            if (pausable.contains(m)) {
                if ((m.access & ACC_SYNCHRONIZED) != 0 && !handWoven.contains(m)) {
                    for (AbstractInsnNode insn : m.instructions) {
                        if (insn instanceof MethodInsnNode && isPausableCall((MethodInsnNode) insn)
                                && !isFiberCurrent((MethodInsnNode) insn)) {
                            error(m, insn, Names.method(cls.name, m.name) + " is synchronized and calls pausable "
                                    + calleeName((MethodInsnNode) insn) + Names.MONITOR_FIX);
                        }
                    }
                }
                checkResolvable(m);
                continue;
            }
            for (AbstractInsnNode insn : m.instructions) {
                if (!(insn instanceof MethodInsnNode)) {
                    continue;
                }
                MethodInsnNode call = (MethodInsnNode) insn;
                if (call.name.startsWith("<")) {
                    continue;
                }
                boolean p;
                try {
                    p = isPausableMethod(call.owner, call.name, call.desc);
                } catch (ClassHierarchy.MissingClassException e) {
                    if (usesWeft) {
                        missing(m, call, e);
                    }
                    continue;
                }
                if (!p) {
                    continue;
                }
                String callee = calleeName(call);
                if (m.name.equals("<init>")) {
                    error(m, call, "constructor of " + Names.simpleClass(cls.name) + " calls pausable " + callee
                            + ": a constructor cannot pause; do blocking work in a method");
                } else if (m.name.equals("<clinit>")) {
                    error(m, call, "static initializer of " + Names.simpleClass(cls.name) + " calls pausable "
                            + callee + ": a static initializer cannot pause; do blocking work in a method");
                } else if (isInterfaceAbstract(call)) {
                    // A plain method, lambda or anonymous class (also one written in a pausable method: it may run
                    // on a plain thread, handed to one) calls in thread mode; on a carrier the call fails fast.
                    threadMode = true;
                }
            }
        }
        return threadMode;
    }

    /** The method as the user wrote it: a lambda body is named after the method that creates it. */
    String userMethod(MethodNode m) {
        MethodNode at = m;
        for (int depth = 0; lambdaCreator.containsKey(at) && depth < 64; depth++) {
            at = lambdaCreator.get(at);
        }
        return Names.method(cls.name, at.name);
    }

    private static boolean isFiberCurrent(MethodInsnNode call) {
        return call.owner.equals(FIBER) && call.name.equals("current");
    }

    private void checkResolvable(MethodNode m) {
        for (AbstractInsnNode insn : m.instructions) {
            if (insn instanceof MethodInsnNode && !((MethodInsnNode) insn).name.startsWith("<")) {
                MethodInsnNode call = (MethodInsnNode) insn;
                try {
                    isPausableMethod(call.owner, call.name, call.desc);
                } catch (ClassHierarchy.MissingClassException e) {
                    missing(m, call, e);
                }
            }
        }
    }

    private void missing(MethodNode m, MethodInsnNode call, ClassHierarchy.MissingClassException e) {
        error(m, call, Names.method(cls.name, m.name) + " calls " + Names.method(call.owner, call.name)
                + " but " + notFound(e));
    }

    /**
     * Why a class the weaver needs is missing: a JDK class absent from the JDK the weaver runs on means the
     * input was compiled for a newer Java.
     */
    private static String notFound(ClassHierarchy.MissingClassException e) {
        String name = e.className.replace('/', '.');
        if (name.startsWith("java.") || name.startsWith("jdk.")) {
            return "class " + name + " is not on the weave classpath: it is not in the JDK the weaver runs on (Java "
                    + Runtime.version().feature() + "), so the class was compiled for a newer Java: run the weaver"
                    + " on that JDK";
        }
        return "class " + name + " is not on the weave classpath: add it (or the library that holds it)";
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

    private boolean isInterfaceAbstract(MethodInsnNode call) {
        try {
            ClassHierarchy.MethodInfo m = hierarchy.resolve(call.owner, call.name, call.desc);
            return m != null && (m.access() & ACC_ABSTRACT) != 0 && hierarchy.isInterface(m.owner());
        } catch (RuntimeException e) {
            return false;
        }
    }

    // ---------------------------------------------------------------------------------- transform

    private void transform() {
        List<MethodNode> original = new ArrayList<>(cls.methods);
        for (IndySite site : pausableIndys) {
            rewriteLambda(site);
        }
        for (MethodNode m : original) {
            if (pausable.contains(m) && !handWoven.contains(m)) {
                weaveMethod(m);
            } else if (!pausable.contains(m) && !m.name.startsWith("<")) {
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
                if (isPausableCall(call) && isInterfaceAbstract(call)) {
                    InsnList fiber = new InsnList();
                    fiber.add(new LdcInsnNode(calleeName(call)));
                    fiber.add(new MethodInsnNode(INVOKESTATIC, MethodWeaver.HAND_WOVEN, "forThread", "(Ljava/lang/String;)" + FIBER_DESC, false));
                    m.instructions.insertBefore(call, fiber);
                    call.desc = wovenDesc(call.desc);
                }
            }
        }
    }

    private void weaveMethod(MethodNode m) {
        int fiberSlot = ((m.access & ACC_STATIC) != 0 ? 0 : 1);
        for (Type t : Type.getArgumentTypes(m.desc)) {
            fiberSlot += t.getSize();
        }
        if (fiberSlot + 1 > 255) {
            error(m, firstLine(m), userMethod(m) + " has too many parameters to take its fiber (the JVM allows"
                    + " 255 parameter slots, this method uses " + fiberSlot + "): pass some of them in an object");
            return;
        }
        if (lambdaBodies.contains(m)) {
            m.desc = wovenDesc(m.desc);
            m.signature = null;
            shiftLocals(m, fiberSlot);
            weaveBody(m, fiberSlot);
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
                wovenDesc(m.desc), null, m.exceptions.toArray(new String[0]));
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
        try {
            new MethodWeaver(this, cls, m, fiberSlot, preemptive).weave();
        } catch (NewHoister.UnsupportedShapeException e) {
            error(m, e.at, userMethod(m) + ": " + e.getMessage());
        } catch (AnalyzerException e) {
            AbstractInsnNode at = e.node;
            error(m, at, Names.method(cls.name, m.name) + ": cannot analyse the bytecode: " + e.getMessage()
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
        b.add(new MethodInsnNode(INVOKESTATIC, MethodWeaver.HAND_WOVEN, "forThread", "()" + FIBER_DESC, false));
        boolean itf = (cls.access & ACC_INTERFACE) != 0;
        int op = isStatic ? INVOKESTATIC : (m.access & ACC_PRIVATE) != 0 ? INVOKESPECIAL : itf ? INVOKEINTERFACE : INVOKEVIRTUAL;
        b.add(new MethodInsnNode(op, cls.name, m.name, wovenDesc(m.desc), itf));
        b.add(new InsnNode(Type.getReturnType(m.desc).getOpcode(IRETURN)));
        return b;
    }

    /** A lambda of a pausable functional interface implements the woven method of the interface. */
    private void rewriteLambda(IndySite site) {
        InvokeDynamicInsnNode indy = site.indy();
        Object[] args = indy.bsmArgs.clone();
        Handle impl = (Handle) args[1];
        args[0] = withFiber((Type) args[0]);
        args[2] = withFiber((Type) args[2]);
        args[1] = wovenImpl(site, impl);
        if (indy.bsm.getName().equals("altMetafactory") && args.length > 3) {
            int flags = (Integer) args[3];
            int i = 4;
            if ((flags & 2) != 0) { // FLAG_MARKERS
                i += 1 + (Integer) args[i];
            }
            if ((flags & 4) != 0) { // FLAG_BRIDGES
                int count = (Integer) args[i];
                for (int j = 0; j < count; j++) {
                    args[i + 1 + j] = withFiber((Type) args[i + 1 + j]);
                }
            }
        }
        indy.bsmArgs = args;
    }

    private static Type withFiber(Type methodType) {
        return Type.getMethodType(wovenDesc(methodType.getDescriptor()));
    }

    /**
     * The woven implementation of a lambda or method reference. A lambda body is woven itself; a method
     * reference goes through a woven adapter of this class, because the JVM's lambda class would use the
     * arguments (a receiver, a value to unbox) that a resumed call passes only as placeholders.
     */
    private Handle wovenImpl(IndySite site, Handle impl) {
        MethodNode body = impl.getOwner().equals(cls.name) ? byKey.get(impl.getName() + impl.getDesc()) : null;
        if (body != null && lambdaBodies.contains(body)) {
            return new Handle(impl.getTag(), impl.getOwner(), impl.getName(), wovenDesc(impl.getDesc()),
                    impl.isInterface());
        }
        return referenceAdapter(site, impl);
    }

    /** {@code static R weft$ref$N(captured..., params...)}, then woven: calls the reference's target. */
    private Handle referenceAdapter(IndySite site, Handle impl) {
        InvokeDynamicInsnNode indy = site.indy();
        int tag = impl.getTag();
        Type instantiated = (Type) indy.bsmArgs[2];
        List<Type> params = new ArrayList<>(List.of(Type.getArgumentTypes(indy.desc)));
        params.addAll(List.of(instantiated.getArgumentTypes()));
        Type ret = instantiated.getReturnType();
        MethodNode a = new MethodNode(ASM9, ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC, "weft$ref$" + adapters++,
                Type.getMethodDescriptor(ret, params.toArray(new Type[0])), null, null);
        InsnList b = a.instructions;
        Type owner = Type.getObjectType(impl.getOwner());
        if (tag == H_NEWINVOKESPECIAL) {
            b.add(new TypeInsnNode(NEW, impl.getOwner()));
            b.add(new InsnNode(DUP));
        }
        List<Type> targetParams = new ArrayList<>();
        if (tag == H_INVOKEVIRTUAL || tag == H_INVOKEINTERFACE || tag == H_INVOKESPECIAL) {
            targetParams.add(owner);
        }
        Type target = Type.getMethodType(impl.getDesc());
        targetParams.addAll(List.of(target.getArgumentTypes()));
        int slot = 0;
        for (int i = 0; i < params.size(); i++) {
            Type p = params.get(i);
            b.add(new VarInsnNode(p.getOpcode(ILOAD), slot));
            slot += p.getSize();
            if (i < targetParams.size()) {
                Conversions.convert(b, p, targetParams.get(i));
            }
        }
        int op = switch (tag) {
            case H_INVOKESTATIC -> INVOKESTATIC;
            case H_INVOKEINTERFACE -> INVOKEINTERFACE;
            case H_INVOKESPECIAL, H_NEWINVOKESPECIAL -> INVOKESPECIAL;
            default -> INVOKEVIRTUAL;
        };
        b.add(new MethodInsnNode(op, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
        Conversions.convert(b, tag == H_NEWINVOKESPECIAL ? owner : target.getReturnType(), ret);
        b.add(new InsnNode(ret.getOpcode(IRETURN)));
        a.maxLocals = slot;
        a.maxStack = 2 * slot + 4;
        if (params.size() != targetParams.size()) {
            error(site.in(), indy, "a method reference to " + Names.method(impl.getOwner(), impl.getName())
                    + " whose arguments do not match its interface one to one (varargs?): use a lambda");
        }
        cls.methods.add(a);
        byKey.put(a.name + a.desc, a);
        pausable.add(a);
        lambdaBodies.add(a);
        weaveMethod(a);
        return new Handle(H_INVOKESTATIC, cls.name, a.name, a.desc, (cls.access & ACC_INTERFACE) != 0);
    }

    // --------------------------------------------------------------------------------- reporting

    void error(MethodNode m, AbstractInsnNode at, String message) {
        errors.add(new WeaveError(sourceFile(), lineOf(m, at), Names.method(cls.name, m.name), message));
    }

    private void error(MethodNode m, int line, String message) {
        errors.add(new WeaveError(sourceFile(), line, Names.method(cls.name, m.name), message));
    }

    private String sourceFile() {
        if (cls.sourceFile != null) {
            return cls.sourceFile;
        }
        return cls.name.substring(cls.name.lastIndexOf('/') + 1) + ".class";
    }

    /**
     * The line of {@code insn} in {@code m}; for code before the first line number (what the weaver inserts
     * at the method's entry) or no instruction at all, the method's first line.
     */
    private static int lineOf(MethodNode m, AbstractInsnNode insn) {
        for (AbstractInsnNode i = insn; i != null; i = i.getPrevious()) {
            if (i instanceof LineNumberNode) {
                return ((LineNumberNode) i).line;
            }
        }
        return firstLine(m);
    }

    private static int firstLine(MethodNode m) {
        for (AbstractInsnNode i : m.instructions) {
            if (i instanceof LineNumberNode) {
                return ((LineNumberNode) i).line;
            }
        }
        return 0;
    }
}
