package dev.weft.weaver;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The {@link Rule}s a class can be checked against before it is rewritten: overrides agree about {@code
 * @Pausable}, no pause in a constructor, a static initializer or a synchronized method, and every callee of a
 * class that uses Weft is on the weave classpath. A pause inside a {@code synchronized} block needs the monitors
 * of each instruction: {@link MethodWeaver} checks it.
 */
final class RuleChecks implements Opcodes {
    private final ClassNode cls;
    private final ClassHierarchy hierarchy;
    private final Pausability pausability;
    private final ErrorSink errors;

    RuleChecks(ClassNode cls, ClassHierarchy hierarchy, Pausability pausability, ErrorSink errors) {
        this.cls = cls;
        this.hierarchy = hierarchy;
        this.pausability = pausability;
        this.errors = errors;
    }

    /**
     * Why a class the weaver needs is missing: a JDK class absent from the JDK the weaver runs on means the
     * input was compiled for a newer Java.
     */
    static String notFound(ClassHierarchy.MissingClassException e) {
        String name = e.className.replace('/', '.');
        if (name.startsWith("java.") || name.startsWith("jdk.")) {
            return "class " + name + " is not on the weave classpath: it is not in the JDK the weaver runs on (Java "
                    + Runtime.version().feature() + "), so the class was compiled for a newer Java: run the weaver"
                    + " on that JDK";
        }
        return "class " + name + " is not on the weave classpath: add it (or the library that holds it)";
    }

    void checkOverrides() {
        ClassHierarchy.ClassInfo self = hierarchy.get(cls.name);
        for (MethodNode m : cls.methods) {
            if ((m.access & (ACC_STATIC | ACC_PRIVATE | ACC_SYNTHETIC | ACC_BRIDGE)) != 0 || m.name.startsWith("<")
                    || m.desc.contains(Abi.FIBER_DESC + ")")) {
                continue;
            }
            List<ClassHierarchy.MethodInfo> overridden = new ArrayList<>();
            try {
                hierarchy.collectOverridden(self, m.name, m.desc, overridden);
            } catch (ClassHierarchy.MissingClassException e) {
                if (pausability.usesWeft()) {
                    errors.error(m, null, Names.method(cls.name, m.name) + ": supertype "
                            + Names.simpleClass(e.className) + " is missing: " + notFound(e));
                }
                continue;
            }
            boolean mine = pausability.isPausable(m);
            for (ClassHierarchy.MethodInfo o : overridden) {
                if (o.pausable() != mine) {
                    Rule rule = mine ? Rule.PAUSABLE_OVERRIDES_PLAIN : Rule.PLAIN_OVERRIDES_PAUSABLE;
                    errors.error(m, ErrorSink.firstLine(m), rule.message(Names.method(cls.name, m.name),
                            Names.method(o.owner(), o.name())));
                    break;
                }
            }
        }
    }

    /** Checks every pausable call outside pausable methods; returns whether any is a thread-mode call to rewrite. */
    boolean checkCalls() {
        boolean threadMode = false;
        for (MethodNode m : cls.methods) {
            if (pausability.isPausable(m)) {
                if ((m.access & ACC_SYNCHRONIZED) != 0 && !pausability.isHandWoven(m)) {
                    for (AbstractInsnNode insn : m.instructions) {
                        if (insn instanceof MethodInsnNode && pausability.isPausableCall((MethodInsnNode) insn)
                                && !isFiberCurrent((MethodInsnNode) insn)) {
                            errors.error(m, insn, Rule.PAUSE_IN_SYNCHRONIZED_METHOD.message(
                                    Names.method(cls.name, m.name), pausability.calleeName((MethodInsnNode) insn)));
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
                    p = pausability.isPausableMethod(call.owner, call.name, call.desc);
                } catch (ClassHierarchy.MissingClassException e) {
                    if (pausability.usesWeft()) {
                        missing(m, call, e);
                    }
                    continue;
                }
                if (!p) {
                    continue;
                }
                String callee = pausability.calleeName(call);
                if (m.name.equals("<init>")) {
                    errors.error(m, call, Rule.PAUSE_IN_CONSTRUCTOR.message(Names.simpleClass(cls.name), callee));
                } else if (m.name.equals("<clinit>")) {
                    errors.error(m, call, Rule.PAUSE_IN_STATIC_INITIALIZER.message(Names.simpleClass(cls.name),
                            callee));
                } else if (pausability.isInterfaceAbstract(call)) {
                    // A plain method, lambda or anonymous class (also one written in a pausable method: it may run
                    // on a plain thread, handed to one) calls in thread mode; on a carrier the call fails fast.
                    threadMode = true;
                }
            }
        }
        return threadMode;
    }

    private static boolean isFiberCurrent(MethodInsnNode call) {
        return call.owner.equals(Abi.FIBER) && call.name.equals("current");
    }

    private void checkResolvable(MethodNode m) {
        for (AbstractInsnNode insn : m.instructions) {
            if (insn instanceof MethodInsnNode && !((MethodInsnNode) insn).name.startsWith("<")) {
                MethodInsnNode call = (MethodInsnNode) insn;
                try {
                    pausability.isPausableMethod(call.owner, call.name, call.desc);
                } catch (ClassHierarchy.MissingClassException e) {
                    missing(m, call, e);
                }
            }
        }
    }

    private void missing(MethodNode m, MethodInsnNode call, ClassHierarchy.MissingClassException e) {
        errors.error(m, call, Names.method(cls.name, m.name) + " calls " + Names.method(call.owner, call.name)
                + " but " + notFound(e));
    }
}
