package dev.weft.weaver;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * One pausable call of a method and what must survive a pause there: which locals are saved in the fiber and
 * which are rebuilt (constants, copies of restored locals), which operand stack values lie below the call's
 * receiver and arguments, and where the receiver is kept when no local holds it. Planned from the method's
 * {@link MethodFlow} before any code is emitted.
 */
final class PauseSitePlan implements Opcodes {
    final MethodInsnNode call;
    final String originalDesc;
    final Frame<BasicValue> frame;
    final BitSet saved = new BitSet();        // locals saved in the fiber
    final List<Integer> rebuilt = new ArrayList<>(); // locals rebuilt from constants or copies
    final int stackBase;                      // operand stack values below the receiver and arguments
    final boolean hasReceiver;
    final BasicValue receiver;
    final int receiverTemp;                   // where the receiver is kept when it is no local's copy, or -1
    /**
     * Whether the call is in tail position: the method returns right after it (its value, or nothing), with
     * nothing to save and a receiver that is rebuilt, so that the frame returns whether or not the callee paused.
     */
    final boolean tail;
    private final int fiberSlot;
    private final boolean isStatic;
    final LabelNode callLabel = new LabelNode();
    final LabelNode pauseLabel = new LabelNode();
    final LabelNode restoreLabel = new LabelNode();

    /**
     * Plans the call at instruction {@code index}; {@code newTemp} gives a fresh local of the size asked for.
     */
    PauseSitePlan(MethodInsnNode call, int index, MethodFlow flow, int fiberSlot, boolean isStatic,
                  IntUnaryOperator newTemp) {
        this.call = call;
        this.originalDesc = call.desc;
        this.frame = flow.frames[index];
        this.fiberSlot = fiberSlot;
        this.isStatic = isStatic;
        Frame<BasicValue> f = frame;
        int args = Type.getArgumentTypes(call.desc).length;
        hasReceiver = call.getOpcode() != INVOKESTATIC;
        stackBase = f.getStackSize() - args - (hasReceiver ? 1 : 0);
        for (int i = 0; i < f.getStackSize(); i++) {
            if (TypedValue.isUninitialized(f.getStack(i))) {
                throw new IllegalStateException("uninitialized object on the stack at a pausable call");
            }
        }
        BitSet live = flow.liveAfter(index);
        // Rebuilt from its local only if that local is live here anyway: a dead local is not restored by
        // earlier resume points, so it cannot be read at this site's pause.
        receiver = hasReceiver ? f.getStack(stackBase) : null;
        for (int n = live.nextSetBit(0); n >= 0; n = live.nextSetBit(n + 1)) {
            if (n >= f.getLocals() || n == fiberSlot || (n == 0 && !isStatic)) {
                continue; // the fiber is passed in again; 'this' is the receiver of the re-entry
            }
            BasicValue v = f.getLocal(n);
            if (v == null || v.getType() == null) {
                continue; // unset or second half of a long/double: never read before written
            }
            if (TypedValue.constantOf(v) != null) {
                rebuilt.add(n);
            } else {
                saved.set(n);
            }
        }
        // A copy of a saved local that is no copy itself (or of 'this', or of the fiber) is rebuilt from
        // it rather than saved twice.
        for (int n : saved.stream().toArray()) {
            int src = TypedValue.localOf(f.getLocal(n));
            if (src < 0 || src == n || src >= f.getLocals()) {
                continue;
            }
            int srcOfSrc = TypedValue.localOf(f.getLocal(src));
            boolean plainSaved = saved.get(src) && (srcOfSrc < 0 || srcOfSrc == src);
            if (plainSaved || src == fiberSlot || (src == 0 && !isStatic)) {
                saved.clear(n);
                rebuilt.add(n);
            }
        }
        receiverTemp = hasReceiver && !isRebuildable(receiver) ? newTemp.applyAsInt(1) : -1;
        tail = saved.isEmpty() && stackBase == 0 && receiverTemp < 0 && returnsAfter(call);
    }

    /** Whether the method returns right after {@code call}: its value, or nothing (after dropping the value). */
    private static boolean returnsAfter(MethodInsnNode call) {
        Type result = Type.getReturnType(call.desc);
        AbstractInsnNode next = nextExecuted(call);
        if (next != null && result.getSize() > 0 && next.getOpcode() == (result.getSize() == 2 ? POP2 : POP)) {
            next = nextExecuted(next);
            result = Type.VOID_TYPE;
        }
        return next != null && next.getOpcode() == result.getOpcode(IRETURN);
    }

    /** The instruction that runs after {@code insn} when it falls through, following {@code goto}s; null if unclear. */
    private static AbstractInsnNode nextExecuted(AbstractInsnNode insn) {
        AbstractInsnNode n = insn.getNext();
        for (int gotos = 0; n != null && gotos < 8; n = n.getNext()) {
            if (n.getOpcode() == GOTO) {
                n = ((JumpInsnNode) n).label;
                gotos++;
            } else if (n.getOpcode() >= 0) {
                return n;
            }
        }
        return null;
    }

    /** Whether local {@code n} holds its value again when the restore block rebuilds the stack. */
    private boolean isRestoredSource(int n) {
        return n >= 0 && (n == fiberSlot || (n == 0 && !isStatic) || saved.get(n) || rebuilt.contains(n));
    }

    /** Whether a stack value at the site can be rebuilt on resume without saving it. */
    boolean isRebuildable(BasicValue v) {
        if (TypedValue.constantOf(v) != null) {
            return true;
        }
        return isRestoredSource(TypedValue.localOf(v));
    }

    /** The types of the saved locals, in slot order. */
    List<Type> savedTypes() {
        List<Type> types = new ArrayList<>();
        for (int n = saved.nextSetBit(0); n >= 0; n = saved.nextSetBit(n + 1)) {
            types.add(frame.getLocal(n).getType());
        }
        return types;
    }

    /** The receiver's type (the call's owner where the analysis knows only "null"). */
    Type receiverType() {
        Type t = receiver.getType();
        if (t == null || t.getInternalName().equals("null")) {
            return Type.getObjectType(call.owner);
        }
        return t;
    }
}
