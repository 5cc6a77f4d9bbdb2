package dev.weft.weaver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Preemptive mode: before every jump back to an earlier instruction (a loop's back-edge), count down a counter
 * kept in a new local; when it reaches zero, reset it and call {@code Fiber.yieldIfOthersWait()}, which is then
 * woven like any other pausable call. None of this touches the jump's operands, and the common path is an
 * {@code iinc}, a load and a branch.
 */
final class PreemptionChecks implements Opcodes {
    /** Back-edges between two preemption checks that may yield (the counter's reset value). */
    static final int PREEMPT_EVERY = 8192;

    private final MethodNode method;
    /** The checks inserted (removed again where a monitor is held). */
    private final Set<MethodInsnNode> checks = Collections.newSetFromMap(new IdentityHashMap<>());

    PreemptionChecks(MethodNode method) {
        this.method = method;
    }

    /** Inserts a check before each back-edge; the counter takes the slot {@code counter}. */
    void insert(int counter) {
        InsnList insns = method.instructions;
        List<AbstractInsnNode> edges = new ArrayList<>();
        for (AbstractInsnNode insn : insns.toArray()) {
            if (isBackEdge(insn)) {
                edges.add(insn);
            }
        }
        if (edges.isEmpty()) {
            return;
        }
        method.maxLocals = Math.max(method.maxLocals, counter + 1);
        // A check loads the counter on top of what its jump already has on the stack (a do-while's two
        // operands), and an empty loop may declare no stack at all: the analysis needs room for it.
        method.maxStack++;
        for (AbstractInsnNode edge : edges) {
            LabelNode skip = new LabelNode();
            InsnList check = new InsnList();
            check.add(new IincInsnNode(counter, -1));
            check.add(new VarInsnNode(ILOAD, counter));
            check.add(new JumpInsnNode(IFGT, skip));
            check.add(new LdcInsnNode(PREEMPT_EVERY));
            check.add(new VarInsnNode(ISTORE, counter));
            MethodInsnNode call = new MethodInsnNode(INVOKESTATIC, Abi.FIBER, "yieldIfOthersWait", "()V", false);
            check.add(call);
            check.add(skip);
            insns.insertBefore(edge, check);
            checks.add(call);
        }
        InsnList init = new InsnList();
        init.add(new LdcInsnNode(PREEMPT_EVERY));
        init.add(new VarInsnNode(ISTORE, counter));
        insns.insert(init);
    }

    /**
     * Removes the checks that a monitor covers (a fiber must not pause there) or that cannot be reached; true if
     * any was removed.
     */
    boolean dropUnderMonitors(MethodFlow flow) {
        List<MethodInsnNode> drop = new ArrayList<>();
        for (MethodInsnNode check : checks) {
            int i = method.instructions.indexOf(check);
            if (flow.frames[i] == null || flow.monitorsAt(i) > 0) {
                drop.add(check);
            }
        }
        for (MethodInsnNode check : drop) {
            method.instructions.remove(check);
            checks.remove(check);
        }
        return !drop.isEmpty();
    }

    private boolean isBackEdge(AbstractInsnNode insn) {
        InsnList insns = method.instructions;
        int at = insns.indexOf(insn);
        if (insn instanceof JumpInsnNode) {
            return insn.getOpcode() != JSR && insns.indexOf(((JumpInsnNode) insn).label) <= at;
        }
        List<LabelNode> targets = new ArrayList<>();
        if (insn instanceof TableSwitchInsnNode) {
            targets.addAll(((TableSwitchInsnNode) insn).labels);
            targets.add(((TableSwitchInsnNode) insn).dflt);
        } else if (insn instanceof LookupSwitchInsnNode) {
            targets.addAll(((LookupSwitchInsnNode) insn).labels);
            targets.add(((LookupSwitchInsnNode) insn).dflt);
        }
        for (LabelNode l : targets) {
            if (insns.indexOf(l) <= at) {
                return true;
            }
        }
        return false;
    }
}
