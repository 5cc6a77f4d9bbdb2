package dev.weft.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * A frame that keeps {@link TypedValue}'s facts true: writing a local forgets every "copy of that local",
 * and a constructor call turns every copy of the new object into an initialised value.
 */
final class TrackingFrame extends Frame<BasicValue> {
    TrackingFrame(int numLocals, int maxStack) {
        super(numLocals, maxStack);
    }

    TrackingFrame(Frame<? extends BasicValue> frame) {
        super(frame);
    }

    @Override
    public void execute(AbstractInsnNode insn, Interpreter<BasicValue> interpreter) throws AnalyzerException {
        int op = insn.getOpcode();
        BasicValue constructed = null;
        if (op == Opcodes.INVOKESPECIAL && ((MethodInsnNode) insn).name.equals("<init>")) {
            int args = Type.getArgumentTypes(((MethodInsnNode) insn).desc).length;
            constructed = getStack(getStackSize() - args - 1);
        }
        super.execute(insn, interpreter);
        if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE) {
            forget(((VarInsnNode) insn).var, true);
        } else if (op == Opcodes.IINC) {
            forget(((IincInsnNode) insn).var, false);
        }
        if (TypedValue.isUninitialized(constructed)) {
            // As the verifier does: every copy of the object made by that new (loaded from any local) is
            // initialised now.
            AbstractInsnNode newInsn = ((TypedValue) constructed).newInsn;
            BasicValue done = TypedValue.of(constructed.getType());
            for (int i = 0; i < getLocals(); i++) {
                if (isMadeBy(getLocal(i), newInsn)) {
                    setLocal(i, done);
                }
            }
            for (int i = 0; i < getStackSize(); i++) {
                if (isMadeBy(getStack(i), newInsn)) {
                    setStack(i, done);
                }
            }
        }
    }

    private static boolean isMadeBy(BasicValue v, AbstractInsnNode newInsn) {
        return v instanceof TypedValue && ((TypedValue) v).newInsn == newInsn;
    }

    /** Local {@code n} changed: no other slot is a copy of it (nor of its neighbours, for long/double). */
    private void forget(int n, boolean keepStoredCopy) {
        for (int i = 0; i < getLocals(); i++) {
            BasicValue v = getLocal(i);
            int src = TypedValue.localOf(v);
            boolean stale = src >= n - 1 && src <= n + 1 && !(keepStoredCopy && i == n && src != n);
            if (stale) {
                setLocal(i, TypedValue.of(v.getType()).withConstant(v));
            }
        }
        for (int i = 0; i < getStackSize(); i++) {
            BasicValue v = getStack(i);
            int src = TypedValue.localOf(v);
            if (src >= n - 1 && src <= n + 1) {
                setStack(i, TypedValue.of(v.getType()).withConstant(v));
            }
        }
    }
}
