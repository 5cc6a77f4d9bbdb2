package dev.weft.weaver;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * Moves {@code new T} down to its constructor call when a pausable call happens in between: an object under
 * construction cannot be saved, and the verifier forbids jumping into that window. The window holds a pause
 * in {@code new Foo(read())}, and also where javac spills the new object into locals ({@code new Foo(switch
 * (k) { default -> { try { yield read(); } catch ... } })}). Until the constructor call, null stands in for
 * the object, on the stack and in locals; there, the constructor's arguments go into temporaries, the
 * placeholders are dropped, and the object is made and put back everywhere its copies were.
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

    /** One constructor call of a moved {@code new}: what it finds of the object besides its receiver. */
    private record Init(MethodInsnNode call, int stackCopies, List<Integer> localCopies) {
    }

    /** Moves every {@code new} whose object is alive at a pausable call; returns whether the code changed. */
    boolean hoist() {
        Set<TypeInsnNode> news = new LinkedHashSet<>();
        for (MethodInsnNode call : calls) {
            Frame<BasicValue> f = flow.frames[method.instructions.indexOf(call)];
            if (f == null) {
                continue;
            }
            for (int i = 0; i < f.getStackSize(); i++) {
                addNew(news, f.getStack(i));
            }
            for (int i = 0; i < f.getLocals(); i++) {
                addNew(news, f.getLocal(i));
            }
        }
        // Plan every move first: the frames are indexed by the instructions as they are now.
        List<Init> inits = new ArrayList<>();
        for (TypeInsnNode newInsn : news) {
            inits.addAll(initsOf(newInsn));
        }
        for (TypeInsnNode newInsn : news) {
            method.instructions.set(newInsn, new InsnNode(ACONST_NULL));
        }
        for (Init init : inits) {
            rewrite(init);
        }
        return !news.isEmpty();
    }

    private static void addNew(Set<TypeInsnNode> news, BasicValue v) {
        if (TypedValue.isUninitialized(v)) {
            news.add((TypeInsnNode) ((TypedValue) v).newInsn);
        }
    }

    private static boolean isObjectOf(BasicValue v, TypeInsnNode newInsn) {
        return v instanceof TypedValue && ((TypedValue) v).newInsn == newInsn;
    }

    /** Every constructor call whose receiver is {@code newInsn}'s object, with the copies it finds. */
    private List<Init> initsOf(TypeInsnNode newInsn) {
        List<Init> inits = new ArrayList<>();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn.getOpcode() != INVOKESPECIAL || !((MethodInsnNode) insn).name.equals("<init>")) {
                continue;
            }
            MethodInsnNode call = (MethodInsnNode) insn;
            Frame<BasicValue> f = flow.frames[method.instructions.indexOf(call)];
            int receiver = f == null ? -1 : f.getStackSize() - Type.getArgumentTypes(call.desc).length - 1;
            if (receiver < 0 || !isObjectOf(f.getStack(receiver), newInsn)) {
                continue;
            }
            int copies = 0;
            while (copies < receiver && isObjectOf(f.getStack(receiver - 1 - copies), newInsn)) {
                copies++;
            }
            for (int i = 0; i < receiver - copies; i++) {
                if (isObjectOf(f.getStack(i), newInsn)) {
                    throw new UnsupportedShapeException(newInsn, "the object created here ("
                            + Names.simpleClass(newInsn.desc) + ") is spread over the operand stack around a"
                            + " pausable call in a way the weaver cannot move: compute the constructor's"
                            + " arguments into locals first");
                }
            }
            List<Integer> locals = new ArrayList<>();
            for (int i = 0; i < f.getLocals(); i++) {
                if (isObjectOf(f.getLocal(i), newInsn)) {
                    locals.add(i);
                }
            }
            inits.add(new Init(call, copies, locals));
        }
        if (inits.isEmpty()) {
            throw new UnsupportedShapeException(newInsn, "the object created here (" + Names.simpleClass(newInsn.desc)
                    + ") is alive at a pausable call but its constructor call cannot be found: compute the"
                    + " constructor's arguments into locals first");
        }
        return inits;
    }

    /**
     * Before the constructor call: arguments to temporaries, placeholders dropped, the object made (once
     * per copy), arguments back. After it: the copies that lived in locals are stored there again.
     */
    private void rewrite(Init init) {
        MethodInsnNode call = init.call();
        Type[] args = Type.getArgumentTypes(call.desc);
        int[] temps = new int[args.length];
        InsnList before = new InsnList();
        for (int a = args.length - 1; a >= 0; a--) {
            temps[a] = newTemp.applyAsInt(args[a].getSize());
            before.add(new VarInsnNode(args[a].getOpcode(ISTORE), temps[a]));
        }
        for (int c = 0; c <= init.stackCopies(); c++) {
            before.add(new InsnNode(POP));
        }
        before.add(new TypeInsnNode(NEW, call.owner));
        int dups = init.stackCopies() + (init.localCopies().isEmpty() ? 0 : 1);
        if (!init.localCopies().isEmpty()) {
            method.maxStack++; // the copy kept for the locals (the class writer computes the final maximum)
        }
        for (int d = 0; d < dups; d++) {
            before.add(new InsnNode(DUP));
        }
        for (int a = 0; a < args.length; a++) {
            before.add(new VarInsnNode(args[a].getOpcode(ILOAD), temps[a]));
        }
        method.instructions.insertBefore(call, before);
        InsnList after = new InsnList();
        List<Integer> locals = init.localCopies();
        for (int i = 0; i < locals.size(); i++) {
            if (i < locals.size() - 1) {
                after.add(new InsnNode(DUP));
            }
            after.add(new VarInsnNode(ASTORE, locals.get(i)));
        }
        method.instructions.insert(call, after);
    }

    /** Bytecode the weaver cannot transform safely, and the instruction where it is. */
    static final class UnsupportedShapeException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient AbstractInsnNode at;

        UnsupportedShapeException(AbstractInsnNode at, String message) {
            super(message);
            this.at = at;
        }
    }
}
