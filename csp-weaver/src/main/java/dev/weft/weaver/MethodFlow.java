package dev.weft.weaver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Everything the weaver needs to know about one method body: the typed frame before each instruction,
 * the control-flow graph (exception edges included), the locals live after each instruction, and how
 * many monitors are held at each instruction.
 */
final class MethodFlow {
    final Frame<BasicValue>[] frames;
    private final List<List<Integer>> normalSucc = new ArrayList<>();
    private final List<List<Integer>> exceptionSucc = new ArrayList<>();
    private final BitSet[] liveIn;
    private final int[] monitors;
    private final MethodNode method;

    MethodFlow(ClassNode owner, MethodNode method, ClassHierarchy hierarchy) throws AnalyzerException {
        this.method = method;
        int n = method.instructions.size();
        for (int i = 0; i < n; i++) {
            normalSucc.add(new ArrayList<>(2));
            exceptionSucc.add(new ArrayList<>(1));
        }
        List<Type> interfaces = new ArrayList<>();
        for (String i : owner.interfaces) {
            interfaces.add(Type.getObjectType(i));
        }
        TypeInterpreter interpreter = new TypeInterpreter(hierarchy, Type.getObjectType(owner.name),
                owner.superName == null ? null : Type.getObjectType(owner.superName), interfaces,
                (owner.access & Opcodes.ACC_INTERFACE) != 0);
        Analyzer<BasicValue> analyzer = new Analyzer<>(interpreter) {
            @Override
            protected Frame<BasicValue> newFrame(int numLocals, int numStack) {
                return new TrackingFrame(numLocals, numStack);
            }

            @Override
            protected Frame<BasicValue> newFrame(Frame<? extends BasicValue> frame) {
                return new TrackingFrame(frame);
            }

            @Override
            protected void newControlFlowEdge(int insn, int successor) {
                if (!normalSucc.get(insn).contains(successor)) {
                    normalSucc.get(insn).add(successor);
                }
            }

            @Override
            protected boolean newControlFlowExceptionEdge(int insn, int successor) {
                if (!exceptionSucc.get(insn).contains(successor)) {
                    exceptionSucc.get(insn).add(successor);
                }
                return true;
            }
        };
        frames = analyzer.analyze(owner.name, method);
        liveIn = liveness();
        monitors = monitorDepths();
    }

    /** Locals live right after instruction {@code i} (on normal and exceptional paths). */
    BitSet liveAfter(int i) {
        BitSet out = new BitSet();
        for (int s : normalSucc.get(i)) {
            out.or(liveIn[s]);
        }
        for (int s : exceptionSucc.get(i)) {
            out.or(liveIn[s]);
        }
        return out;
    }

    /** How many monitors the method holds when instruction {@code i} runs. */
    int monitorsAt(int i) {
        return monitors[i];
    }

    private BitSet[] liveness() {
        int n = method.instructions.size();
        BitSet[] in = new BitSet[n];
        BitSet[] use = new BitSet[n];
        BitSet[] def = new BitSet[n];
        for (int i = 0; i < n; i++) {
            in[i] = new BitSet();
            use[i] = new BitSet();
            def[i] = new BitSet();
            AbstractInsnNode insn = method.instructions.get(i);
            int op = insn.getOpcode();
            if (insn instanceof VarInsnNode) {
                int var = ((VarInsnNode) insn).var;
                if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE) {
                    def[i].set(var);
                    if (op == Opcodes.LSTORE || op == Opcodes.DSTORE) {
                        def[i].set(var + 1);
                    }
                } else {
                    use[i].set(var);
                }
            } else if (insn instanceof IincInsnNode) {
                use[i].set(((IincInsnNode) insn).var);
            }
        }
        ArrayDeque<Integer> work = new ArrayDeque<>();
        boolean[] queued = new boolean[n];
        List<List<Integer>> preds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            preds.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            for (int s : normalSucc.get(i)) {
                preds.get(s).add(i);
            }
            for (int s : exceptionSucc.get(i)) {
                preds.get(s).add(i);
            }
        }
        for (int i = n - 1; i >= 0; i--) {
            work.add(i);
            queued[i] = true;
        }
        while (!work.isEmpty()) {
            int i = work.poll();
            queued[i] = false;
            BitSet normalOut = new BitSet();
            for (int s : normalSucc.get(i)) {
                normalOut.or(in[s]);
            }
            BitSet next = (BitSet) normalOut.clone();
            next.andNot(def[i]);
            next.or(use[i]);
            for (int s : exceptionSucc.get(i)) {
                next.or(in[s]); // a handler may see the value from before this instruction
            }
            if (!next.equals(in[i])) {
                in[i] = next;
                for (int p : preds.get(i)) {
                    if (!queued[p]) {
                        queued[p] = true;
                        work.add(p);
                    }
                }
            }
        }
        return in;
    }

    private int[] monitorDepths() {
        int n = method.instructions.size();
        int[] depth = new int[n];
        java.util.Arrays.fill(depth, -1);
        if (n == 0) {
            return depth;
        }
        ArrayDeque<Integer> work = new ArrayDeque<>();
        depth[0] = 0;
        work.add(0);
        while (!work.isEmpty()) {
            int i = work.poll();
            int op = method.instructions.get(i).getOpcode();
            int after = depth[i] + (op == Opcodes.MONITORENTER ? 1 : op == Opcodes.MONITOREXIT ? -1 : 0);
            for (int s : normalSucc.get(i)) {
                if (after > depth[s] && after < 256) {
                    depth[s] = after;
                    work.add(s);
                }
            }
            for (int s : catchingHandlers(i)) {
                // javac's handler that releases a monitor covers the monitorexit itself: take the depth
                // before the instruction, so that the handler's own monitorexit balances it.
                int d = Math.max(0, depth[i]);
                if (d > depth[s]) {
                    depth[s] = d;
                    work.add(s);
                }
            }
        }
        return depth;
    }

    /**
     * The handlers an exception thrown at instruction {@code i} can really reach: those covering it, in
     * table order, up to the first that catches everything. javac's handler that releases a monitor catches
     * everything, so an outer {@code catch} around a {@code synchronized} block is reached only from code
     * outside the monitor (or from that handler's rethrow, once the monitor is released).
     */
    private List<Integer> catchingHandlers(int i) {
        List<Integer> handlers = new ArrayList<>(1);
        for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
            InsnList insns = method.instructions;
            if (insns.indexOf(tcb.start) <= i && i < insns.indexOf(tcb.end)) {
                handlers.add(insns.indexOf(tcb.handler));
                if (tcb.type == null || tcb.type.equals("java/lang/Throwable")) {
                    break;
                }
            }
        }
        return handlers;
    }
}
