package dev.weft.weaver;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * Rewrites the body of one pausable method (already given its fiber parameter) into its resumable form, in
 * phases: {@code Fiber.current()} becomes the fiber parameter; in preemptive mode, {@link PreemptionChecks} at
 * loop back-edges; {@link NewHoister} takes pausable arguments out of object construction; each pausable call
 * is planned ({@link PauseSitePlan}) from the method's {@link MethodFlow}, or refused under a monitor; then
 * {@link ResumeCode} emits the pause and resume code.
 */
final class MethodWeaver implements Opcodes {
    /** What weaving a method needs of its class: nothing else of the {@link ClassWeaver} is reachable from here. */
    record ClassContext(ClassNode cls, ClassHierarchy hierarchy, Pausability pausability, SaveMethods saves,
                        ErrorSink errors) {
    }

    private final ClassContext context;
    private final MethodNode method;
    private final int fiberSlot;
    private final boolean preemptive;
    private int nextTemp;

    MethodWeaver(ClassContext context, MethodNode method, int fiberSlot, boolean preemptive) {
        this.context = context;
        this.method = method;
        this.fiberSlot = fiberSlot;
        this.preemptive = preemptive;
    }

    /** Weaves the body; leaves it alone when the method makes no pausable call. */
    void weave() throws AnalyzerException {
        replaceIntrinsics();
        PreemptionChecks checks = new PreemptionChecks(method);
        if (preemptive) {
            checks.insert(Math.max(method.maxLocals, fiberSlot + 1));
        }
        if (findCalls().isEmpty()) {
            return;
        }
        nextTemp = Math.max(method.maxLocals, fiberSlot + 1);
        MethodFlow flow = analyse();
        if (checks.dropUnderMonitors(flow)) {
            if (findCalls().isEmpty()) {
                return;
            }
            flow = analyse();
        }
        if (new NewHoister(method, flow, findCalls(), this::newTemp).hoist()) {
            flow = analyse();
        }
        boolean isStatic = (method.access & ACC_STATIC) != 0;
        List<PauseSitePlan> sites = new ArrayList<>();
        for (MethodInsnNode call : findCalls()) {
            int i = method.instructions.indexOf(call);
            if (flow.frames[i] == null) {
                continue; // unreachable code
            }
            if (flow.monitorsAt(i) > 0) {
                Pausability p = context.pausability();
                context.errors().error(method, call, Rule.PAUSE_UNDER_MONITOR.message(p.userMethod(method),
                        p.calleeName(call)));
                continue;
            }
            sites.add(new PauseSitePlan(call, i, flow, fiberSlot, isStatic, this::newTemp));
        }
        if (sites.isEmpty()) {
            return;
        }
        new ResumeCode(context.cls(), method, fiberSlot, context.saves(), context.hierarchy(), this::newTemp).emit(sites);
    }

    private MethodFlow analyse() throws AnalyzerException {
        return new MethodFlow(context.cls(), method, context.hierarchy());
    }

    private int newTemp(int size) {
        int t = nextTemp;
        nextTemp += size;
        method.maxLocals = Math.max(method.maxLocals, nextTemp);
        return t;
    }

    /** Calls to {@code Fiber.current()} in woven code are just the fiber parameter. */
    private void replaceIntrinsics() {
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            if (insn instanceof MethodInsnNode) {
                MethodInsnNode m = (MethodInsnNode) insn;
                if (m.getOpcode() == INVOKESTATIC && m.owner.equals(Abi.FIBER) && m.name.equals("current")
                        && m.desc.equals("()" + Abi.FIBER_DESC)) {
                    method.instructions.set(m, new VarInsnNode(ALOAD, fiberSlot));
                }
            }
        }
    }

    private List<MethodInsnNode> findCalls() {
        List<MethodInsnNode> calls = new ArrayList<>();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof MethodInsnNode && context.pausability().isPausableCall((MethodInsnNode) insn)) {
                calls.add((MethodInsnNode) insn);
            }
        }
        return calls;
    }
}
