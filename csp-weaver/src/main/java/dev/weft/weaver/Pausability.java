package dev.weft.weaver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * Which methods of one class pause, and which calls reach pausable methods: a method annotated {@code
 * @Pausable}, the body of a lambda of a pausable functional interface, and a bridge or accessor that forwards to
 * a pausable method of the class; callees are looked up in the {@link ClassHierarchy}.
 *
 * <p>Computed once, before any method is rewritten, and not changed after: every later phase asks the same
 * answers. Its one change to the class comes first: javac may give a pausable lambda and a plain one a shared
 * body, which is split so that each body is either pausable or not.
 */
final class Pausability implements Opcodes {
    private static final String LMF = "java/lang/invoke/LambdaMetafactory";

    /** A lambda or method reference of a pausable functional interface, and the method that creates it. */
    record Lambda(MethodNode in, InvokeDynamicInsnNode indy) {
    }

    private final ClassNode cls;
    private final ClassHierarchy hierarchy;
    /** Whether the class mentions Weft at all; if not, types missing from the weave classpath are no error. */
    private final boolean usesWeft;
    private final Map<String, MethodNode> byKey = new HashMap<>();
    private final Set<MethodNode> pausable = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MethodNode> handWoven = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MethodNode> lambdaBodies = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<Lambda> pausableLambdas = new ArrayList<>();
    /** Every lambda body of this class, with the method that creates it. */
    private final Map<MethodNode, MethodNode> lambdaCreator = new IdentityHashMap<>();

    /** Analyses {@code cls}; a callee or functional interface missing from the classpath is reported to {@code errors}. */
    Pausability(ClassNode cls, ClassHierarchy hierarchy, boolean usesWeft, ErrorSink errors) {
        this.cls = cls;
        this.hierarchy = hierarchy;
        this.usesWeft = usesWeft;
        for (MethodNode m : cls.methods) {
            byKey.put(m.name + m.desc, m);
        }
        for (MethodNode m : cls.methods) {
            if (annotatedPausable(m)) {
                pausable.add(m);
                if (byKey.containsKey(m.name + Abi.wovenDesc(m.desc))) {
                    handWoven.add(m); // the runtime's primitives come with their woven form written by hand
                }
            }
        }
        splitSharedLambdaBodies();
        for (MethodNode m : cls.methods) {
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof InvokeDynamicInsnNode && isLambda((InvokeDynamicInsnNode) insn)) {
                    classifyLambda(m, (InvokeDynamicInsnNode) insn, errors);
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

    /** Whether {@code m} is pausable. */
    boolean isPausable(MethodNode m) {
        return pausable.contains(m);
    }

    /** Whether {@code m} is a primitive of the runtime whose woven form is written by hand beside it. */
    boolean isHandWoven(MethodNode m) {
        return handWoven.contains(m);
    }

    /** Whether {@code m} is the body of a pausable lambda (woven in place: nothing calls it by its own name). */
    boolean isLambdaBody(MethodNode m) {
        return lambdaBodies.contains(m);
    }

    /** The lambdas and method references of pausable functional interfaces, in class order. */
    List<Lambda> pausableLambdas() {
        return Collections.unmodifiableList(pausableLambdas);
    }

    /** Whether the class has a pausable method to weave or a pausable lambda to rewrite. */
    boolean hasWork() {
        return pausable.size() > handWoven.size() || !pausableLambdas.isEmpty();
    }

    /** Whether the class mentions Weft at all (see {@link ClassWeaver#mentionsWeft}). */
    boolean usesWeft() {
        return usesWeft;
    }

    /** The method of this class with that name and descriptor, or null. */
    MethodNode own(String name, String desc) {
        return byKey.get(name + desc);
    }

    /** The method as the user wrote it: a lambda body is named after the method that creates it. */
    String userMethod(MethodNode m) {
        MethodNode at = m;
        for (int depth = 0; lambdaCreator.containsKey(at) && depth < 64; depth++) {
            at = lambdaCreator.get(at);
        }
        return Names.method(cls.name, at.name);
    }

    /**
     * Whether {@code owner.name desc} is a pausable method, as declared or inherited.
     *
     * @throws ClassHierarchy.MissingClassException if a class it needs is not on the weave classpath
     */
    boolean isPausableMethod(String owner, String name, String desc) {
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

    /** Whether this call reaches a pausable method; a callee that is missing counts as not (the checks report it). */
    boolean isPausableCall(MethodInsnNode call) {
        if (call.name.startsWith("<")) {
            return false;
        }
        try {
            return isPausableMethod(call.owner, call.name, call.desc);
        } catch (ClassHierarchy.MissingClassException e) {
            return false;
        }
    }

    /** The callee as the user knows it: the class that declares it, which may be a supertype of the call's owner. */
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

    /** Whether the call resolves to an abstract interface method (which a lambda may implement). */
    boolean isInterfaceAbstract(MethodInsnNode call) {
        try {
            ClassHierarchy.MethodInfo m = hierarchy.resolve(call.owner, call.name, call.desc);
            return m != null && (m.access() & ACC_ABSTRACT) != 0 && hierarchy.isInterface(m.owner());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean isJdk(String owner) {
        return owner.startsWith("java/") || owner.startsWith("javax/") || owner.startsWith("jdk/")
                || owner.startsWith("sun/") || owner.startsWith("com/sun/");
    }

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

    static boolean isLambda(InvokeDynamicInsnNode indy) {
        return indy.bsm.getOwner().equals(LMF) && indy.bsmArgs.length >= 3 && indy.bsmArgs[1] instanceof Handle;
    }

    /** The synthetic body in this class that a lambda's invokedynamic names, or null (a method reference). */
    MethodNode lambdaBody(InvokeDynamicInsnNode indy) {
        Handle impl = (Handle) indy.bsmArgs[1];
        MethodNode body = impl.getOwner().equals(cls.name) ? byKey.get(impl.getName() + impl.getDesc()) : null;
        return body != null && (body.access & ACC_SYNTHETIC) != 0 && body.name.startsWith("lambda$") ? body : null;
    }

    /** Whether the functional interface of a lambda's invokedynamic has a pausable method. */
    private boolean isPausableInterface(InvokeDynamicInsnNode indy) {
        return isPausableMethod(Type.getReturnType(indy.desc).getInternalName(), indy.name,
                ((Type) indy.bsmArgs[0]).getDescriptor());
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
                    if (isPausableInterface(indy)) {
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

    private void classifyLambda(MethodNode in, InvokeDynamicInsnNode indy, ErrorSink errors) {
        String fi = Type.getReturnType(indy.desc).getInternalName();
        boolean fiPausable;
        try {
            fiPausable = isPausableInterface(indy);
        } catch (ClassHierarchy.MissingClassException e) {
            if (usesWeft) {
                errors.error(in, indy, Names.method(cls.name, in.name) + " creates a " + Names.simpleClass(fi)
                        + " but " + RuleChecks.notFound(e));
                return;
            }
            fiPausable = false; // see usesWeft
        }
        MethodNode body = lambdaBody(indy);
        if (body != null) {
            lambdaCreator.put(body, in);
        }
        if (fiPausable) {
            pausableLambdas.add(new Lambda(in, indy));
            if (body != null) {
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
}
