package dev.weft.weaver;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Moves {@code new T; dup} down to just before the constructor call when a pausable call happens in
 * between ({@code new Foo(read())}): an object under construction cannot be saved, and the verifier
 * forbids jumping into that window. The constructor's arguments are evaluated first into temporaries.
 */
final class NewHoister implements Opcodes {
    private final MethodNode method;
    private final MethodFlow flow;
    private final List<MethodInsnNode> calls;
    private final IntUnaryOperator newTemp;

    NewHoister(MethodNode method, MethodFlow flow, List<MethodInsnNode> calls, IntUnaryOperator newTemp) {
        this.method = method;
        this.flow = flow;
        this.calls = calls;
        this.newTemp = newTemp;
    }

    /** Hoists every window that holds a pausable call; returns whether the code changed. */
    boolean hoist() {
        Set<AbstractInsnNode> news = new LinkedHashSet<>();
        for (MethodInsnNode call : calls) {
            Frame<BasicValue> f = flow.frames[method.instructions.indexOf(call)];
            if (f == null) {
                continue;
            }
            for (int i = 0; i < f.getStackSize(); i++) {
                BasicValue v = f.getStack(i);
                if (TypedValue.isUninitialized(v)) {
                    news.add(((TypedValue) v).newInsn);
                }
            }
        }
        // Match every window first: the frames are indexed by the instructions as they are now.
        Map<TypeInsnNode, MethodInsnNode> inits = new LinkedHashMap<>();
        for (AbstractInsnNode n : news) {
            TypeInsnNode newInsn = (TypeInsnNode) n;
            AbstractInsnNode dup = next(newInsn);
            MethodInsnNode init = findInit(newInsn);
            if (dup == null || dup.getOpcode() != DUP || init == null) {
                throw new UnsupportedShapeException("object creation of " + Names.simpleClass(newInsn.desc)
                        + " around a pausable call has a shape the weaver does not support (expected new, dup,"
                        + " arguments, <init>); compute the pausable argument into a local first");
            }
            inits.put(newInsn, init);
        }
        inits.forEach(this::hoist);
        return !news.isEmpty();
    }

    private void hoist(TypeInsnNode newInsn, MethodInsnNode init) {
        AbstractInsnNode dup = next(newInsn);
        method.instructions.remove(newInsn);
        method.instructions.remove(dup);
        Type[] args = Type.getArgumentTypes(init.desc);
        int[] temps = new int[args.length];
        InsnList b = new InsnList();
        for (int a = args.length - 1; a >= 0; a--) {
            temps[a] = newTemp.applyAsInt(args[a].getSize());
            b.add(new VarInsnNode(args[a].getOpcode(ISTORE), temps[a]));
        }
        b.add(newInsn);
        b.add(new InsnNode(DUP));
        for (int a = 0; a < args.length; a++) {
            b.add(new VarInsnNode(args[a].getOpcode(ILOAD), temps[a]));
        }
        method.instructions.insertBefore(init, b);
    }

    private MethodInsnNode findInit(TypeInsnNode newInsn) {
        for (AbstractInsnNode insn = newInsn.getNext(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() == INVOKESPECIAL && ((MethodInsnNode) insn).name.equals("<init>")) {
                MethodInsnNode m = (MethodInsnNode) insn;
                Frame<BasicValue> f = flow.frames[method.instructions.indexOf(m)];
                if (f == null) {
                    continue;
                }
                BasicValue receiver = f.getStack(f.getStackSize() - Type.getArgumentTypes(m.desc).length - 1);
                if (receiver instanceof TypedValue && ((TypedValue) receiver).newInsn == newInsn) {
                    return m;
                }
            }
        }
        return null;
    }

    private static AbstractInsnNode next(AbstractInsnNode insn) {
        AbstractInsnNode n = insn.getNext();
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }

    /** Bytecode the weaver cannot transform safely. */
    static final class UnsupportedShapeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnsupportedShapeException(String message) {
            super(message);
        }
    }
}
