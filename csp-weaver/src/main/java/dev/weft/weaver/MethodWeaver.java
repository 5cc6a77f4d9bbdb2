package dev.weft.weaver;

import java.util.ArrayList;
import java.util.BitSet;
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
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Rewrites the body of one pausable method (already given its fiber parameter) into its resumable form.
 *
 * <p>Around each pausable call: the fiber is passed as the last argument; after the call the fiber's mode
 * is checked, and if the callee paused, an out-of-line block saves what this frame needs after the call
 * (live locals, operand stack values, the call's receiver, the resume point) and returns. A prelude at the
 * method's entry jumps, when the fiber is resuming, to a dispatcher that restores those values and calls
 * the callee again. Constants and copies of restored locals are rebuilt rather than saved.
 */
final class MethodWeaver implements Opcodes {
    static final String FIBER = "dev/weft/csp/Fiber";
    static final String FIBER_DESC = "L" + FIBER + ";";
    /** Where the woven forms of {@link #FIBER}'s public primitives are (the ABI keeps them off the API). */
    static final String HAND_WOVEN = "dev/weft/csp/abi/HandWoven";
    private static final Set<String> HAND_WOVEN_PRIMITIVES =
            Set.of("park", "parkOn", "yield", "yieldIfDue", "yieldIfOthersWait");
    static final String CONT = "dev/weft/csp/abi/Continuation";
    private static final String CONT_DESC = "L" + CONT + ";";
    static final String SITE = "dev/weft/csp/abi/PauseSite";
    private static final String SITE_DESC = "L" + SITE + ";";
    /** Binds the {@code invokedynamic} that gives a pause block its call's constant site. */
    private static final Handle SITE_BOOTSTRAP = new Handle(H_INVOKESTATIC, SITE, "bootstrap",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;II)"
                    + "Ljava/lang/invoke/CallSite;", false);

    private final ClassWeaver owner;
    private final ClassNode cls;
    private final MethodNode method;
    private final int fiberSlot;
    private final boolean isStatic;
    private int nextTemp;

    private final boolean preemptive;
    /** The preemption checks this weaver inserted (removed again where a monitor is held). */
    private final Set<MethodInsnNode> checks = Collections.newSetFromMap(new IdentityHashMap<>());

    MethodWeaver(ClassWeaver owner, ClassNode cls, MethodNode method, int fiberSlot, boolean preemptive) {
        this.owner = owner;
        this.cls = cls;
        this.method = method;
        this.fiberSlot = fiberSlot;
        this.isStatic = (method.access & ACC_STATIC) != 0;
        this.preemptive = preemptive;
    }

    /** One pausable call and what must survive it. */
    private static final class Site {
        MethodInsnNode call;
        String originalDesc;
        Frame<BasicValue> frame;
        BitSet saved = new BitSet();        // locals saved in the fiber
        List<Integer> rebuilt = new ArrayList<>(); // locals rebuilt from constants or copies
        int stackBase;                      // operand stack values below the receiver and arguments
        boolean hasReceiver;
        BasicValue receiver;
        int receiverTemp = -1;              // where the receiver is kept when it is no local's copy
        LabelNode callLabel = new LabelNode();
        LabelNode pauseLabel = new LabelNode();
        LabelNode restoreLabel = new LabelNode();
    }

    /** Weaves the body; leaves it alone when the method makes no pausable call. */
    void weave() throws AnalyzerException {
        replaceIntrinsics();
        if (preemptive) {
            insertPreemptionChecks();
        }
        if (findCalls().isEmpty()) {
            return;
        }
        nextTemp = Math.max(method.maxLocals, fiberSlot + 1);
        MethodFlow flow = new MethodFlow(cls, method, owner.hierarchy());
        if (!checks.isEmpty() && dropChecksUnderMonitors(flow)) {
            if (findCalls().isEmpty()) {
                return;
            }
            flow = new MethodFlow(cls, method, owner.hierarchy());
        }
        if (new NewHoister(method, flow, findCalls(), this::newTemp).hoist()) {
            flow = new MethodFlow(cls, method, owner.hierarchy());
        }
        List<MethodInsnNode> calls = findCalls();
        List<Site> sites = new ArrayList<>();
        for (MethodInsnNode call : calls) {
            int i = method.instructions.indexOf(call);
            if (flow.frames[i] == null) {
                continue; // unreachable code
            }
            if (flow.monitorsAt(i) > 0) {
                owner.error(method, call, owner.userMethod(method) + " calls pausable "
                        + owner.calleeName(call) + " inside a synchronized block" + Names.MONITOR_FIX);
                continue;
            }
            sites.add(plan(call, i, flow));
        }
        if (sites.isEmpty()) {
            return;
        }
        emit(sites);
    }

    /** Back-edges between two preemption checks that may yield (the counter's reset value). */
    static final int PREEMPT_EVERY = 8192;

    /**
     * Preemptive mode: before every jump back to an earlier instruction (a loop's back-edge), count down a
     * counter kept in a new local; when it reaches zero, reset it and call {@code Fiber.yieldIfOthersWait()},
     * which is then woven like any other pausable call. None of this touches the jump's operands, and the
     * common path is an {@code iinc}, a load and a branch.
     */
    private void insertPreemptionChecks() {
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
        int counter = Math.max(method.maxLocals, fiberSlot + 1);
        method.maxLocals = counter + 1;
        // A check loads the counter on top of what its jump already has on the stack (a do-while's two
        // operands), and an empty loop may declare no stack at all: the analysis below needs room for it.
        method.maxStack++;
        for (AbstractInsnNode edge : edges) {
            LabelNode skip = new LabelNode();
            InsnList check = new InsnList();
            check.add(new IincInsnNode(counter, -1));
            check.add(new VarInsnNode(ILOAD, counter));
            check.add(new JumpInsnNode(IFGT, skip));
            check.add(new LdcInsnNode(PREEMPT_EVERY));
            check.add(new VarInsnNode(ISTORE, counter));
            MethodInsnNode call = new MethodInsnNode(INVOKESTATIC, FIBER, "yieldIfOthersWait", "()V", false);
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

    /** Removes inserted checks that a monitor covers or that cannot be reached; true if any was removed. */
    private boolean dropChecksUnderMonitors(MethodFlow flow) {
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
                if (m.getOpcode() == INVOKESTATIC && m.owner.equals(FIBER) && m.name.equals("current")
                        && m.desc.equals("()" + FIBER_DESC)) {
                    method.instructions.set(m, new VarInsnNode(ALOAD, fiberSlot));
                }
            }
        }
    }

    private List<MethodInsnNode> findCalls() {
        List<MethodInsnNode> calls = new ArrayList<>();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof MethodInsnNode && owner.isPausableCall((MethodInsnNode) insn)) {
                calls.add((MethodInsnNode) insn);
            }
        }
        return calls;
    }

    private Site plan(MethodInsnNode call, int index, MethodFlow flow) {
        Site s = new Site();
        s.call = call;
        s.originalDesc = call.desc;
        s.frame = flow.frames[index];
        Frame<BasicValue> f = s.frame;
        int args = Type.getArgumentTypes(call.desc).length;
        s.hasReceiver = call.getOpcode() != INVOKESTATIC;
        s.stackBase = f.getStackSize() - args - (s.hasReceiver ? 1 : 0);
        for (int i = 0; i < f.getStackSize(); i++) {
            if (TypedValue.isUninitialized(f.getStack(i))) {
                throw new IllegalStateException("uninitialized object on the stack at a pausable call");
            }
        }
        BitSet live = flow.liveAfter(index);
        if (s.hasReceiver) {
            // Rebuilt from its local only if that local is live here anyway: a dead local is not restored
            // by earlier resume points, so it cannot be read at this site's pause.
            s.receiver = f.getStack(s.stackBase);
        }
        for (int n = live.nextSetBit(0); n >= 0; n = live.nextSetBit(n + 1)) {
            if (n >= f.getLocals() || n == fiberSlot || (n == 0 && !isStatic)) {
                continue; // the fiber is passed in again; 'this' is the receiver of the re-entry
            }
            BasicValue v = f.getLocal(n);
            if (v == null || v.getType() == null) {
                continue; // unset or second half of a long/double: never read before written
            }
            if (TypedValue.constantOf(v) != null) {
                s.rebuilt.add(n);
            } else {
                s.saved.set(n);
            }
        }
        // A copy of a saved local that is no copy itself (or of 'this', or of the fiber) is rebuilt from
        // it rather than saved twice.
        for (int n : s.saved.stream().toArray()) {
            int src = TypedValue.localOf(f.getLocal(n));
            if (src < 0 || src == n || src >= f.getLocals()) {
                continue;
            }
            int srcOfSrc = TypedValue.localOf(f.getLocal(src));
            boolean plainSaved = s.saved.get(src) && (srcOfSrc < 0 || srcOfSrc == src);
            if (plainSaved || src == fiberSlot || (src == 0 && !isStatic)) {
                s.saved.clear(n);
                s.rebuilt.add(n);
            }
        }
        if (s.hasReceiver && !isRebuildable(s, s.receiver)) {
            s.receiverTemp = newTemp(1);
        }
        return s;
    }

    /** Whether local {@code n} holds its value again when the restore block rebuilds the stack. */
    private boolean isRestoredSource(Site s, int n) {
        return n >= 0 && (n == fiberSlot || (n == 0 && !isStatic) || s.saved.get(n) || s.rebuilt.contains(n));
    }

    /** Whether a stack value at the site can be rebuilt on resume without saving it. */
    private boolean isRebuildable(Site s, BasicValue v) {
        if (TypedValue.constantOf(v) != null) {
            return true;
        }
        return isRestoredSource(s, TypedValue.localOf(v));
    }

    // ------------------------------------------------------------------------------------ emission

    /**
     * Sites that save the same locals (same slots, same types) share the code that saves and restores them:
     * a site's own pause block saves its receiver and stack, then jumps with its {@code PauseSite} on the
     * operand stack to its group's block, which saves the locals, then the site, and returns; on resume, the group's block restores the locals and switches on
     * the resume point to the site's own restore block. A method with many locals live across many pauses
     * then grows with the number of distinct live sets, not with sites times locals.
     */
    private static final class Group {
        final List<Integer> points = new ArrayList<>();
        final Site model;                   // any site of the group: the locals and their types
        final LabelNode saveLabel = new LabelNode();
        final LabelNode restoreLabel = new LabelNode();

        Group(Site model) {
            this.model = model;
        }

        /** Whether the group's sites share one block (else each site has its own, as a goto costs too). */
        boolean shared() {
            return points.size() > 1 && !model.saved.isEmpty();
        }
    }

    private void emit(List<Site> sites) {
        Group[] groupOf = groups(sites);
        List<Group> groups = List.of(groupOf).stream().distinct().toList();
        int point = groups.stream().anyMatch(Group::shared) ? newTemp(1) : -1;
        InsnList tail = new InsnList();
        int firstLine = lineOf(method.instructions.getLast(), true);
        for (int k = 0; k < sites.size(); k++) {
            Site s = sites.get(k);
            rewriteCall(s);
            tail.add(pauseBlock(s, k));
            if (groupOf[k].shared()) {
                tail.add(new JumpInsnNode(GOTO, groupOf[k].saveLabel));
            } else {
                tail.add(saveLocals(s));
            }
        }
        for (Group g : groups) {
            if (g.shared()) {
                // Shared by several calls' lines: like the dispatcher, on the method's first line.
                tail.add(g.saveLabel);
                tail.add(lineNumber(firstLine, g.saveLabel));
                tail.add(saveLocals(g.model));
            }
        }
        LabelNode dispatch = new LabelNode();
        LabelNode bad = new LabelNode();
        tail.add(dispatcher(dispatch, firstLine, bad, sites, groupOf, point));
        for (Group g : groups) {
            if (g.shared()) {
                tail.add(g.restoreLabel);
                tail.add(lineNumber(firstLine, g.restoreLabel));
                tail.add(restoreLocals(g.model));
                tail.add(new VarInsnNode(ILOAD, point));
                int[] keys = g.points.stream().mapToInt(Integer::intValue).toArray();
                LabelNode[] labels = new LabelNode[keys.length];
                for (int i = 0; i < keys.length; i++) {
                    labels[i] = sites.get(keys[i]).restoreLabel;
                }
                tail.add(new LookupSwitchInsnNode(bad, keys, labels));
            }
            for (int k : g.points) {
                tail.add(sites.get(k).restoreLabel);
                tail.add(lineNumber(lineOf(sites.get(k).call, false), sites.get(k).restoreLabel));
                if (!g.shared()) {
                    tail.add(restoreLocals(sites.get(k)));
                }
                tail.add(restoreBlock(sites.get(k)));
            }
        }
        InsnList prelude = new InsnList();
        LabelNode entry = new LabelNode();
        prelude.add(entry);
        prelude.add(lineNumber(firstLine, entry));
        prelude.add(new VarInsnNode(ALOAD, fiberSlot));
        prelude.add(new FieldInsnNode(GETFIELD, CONT, "mode", "I"));
        prelude.add(new JumpInsnNode(IFLT, dispatch));
        method.instructions.insert(prelude);
        method.instructions.add(tail);
    }

    /** The group of each site (by resume point): sites that save the same locals are in one group. */
    private static Group[] groups(List<Site> sites) {
        Map<List<String>, Group> groups = new HashMap<>();
        Group[] groupOf = new Group[sites.size()];
        for (int k = 0; k < sites.size(); k++) {
            Site s = sites.get(k);
            groupOf[k] = groups.computeIfAbsent(savedLocals(s), key -> new Group(s));
            groupOf[k].points.add(k);
        }
        return groupOf;
    }

    /**
     * Pops the resume point (kept in local {@code point} when a group is shared) and jumps to the restore
     * block of its group or site; a bad resume point throws.
     */
    private InsnList dispatcher(LabelNode dispatch, int firstLine, LabelNode bad, List<Site> sites, Group[] groupOf,
                                int point) {
        InsnList b = new InsnList();
        b.add(dispatch);
        b.add(lineNumber(firstLine, dispatch)); // like the prelude: a debugger entering a resumed frame starts here
        b.add(new VarInsnNode(ALOAD, fiberSlot));
        b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popResume", "()I", false));
        if (point >= 0) {
            b.add(new InsnNode(DUP));
            b.add(new VarInsnNode(ISTORE, point));
        }
        LabelNode[] targets = new LabelNode[sites.size()];
        for (int k = 0; k < targets.length; k++) {
            targets[k] = groupOf[k].shared() ? groupOf[k].restoreLabel : sites.get(k).restoreLabel;
        }
        b.add(new TableSwitchInsnNode(0, targets.length - 1, bad, targets));
        b.add(bad);
        b.add(new TypeInsnNode(NEW, "java/lang/IllegalStateException"));
        b.add(new InsnNode(DUP));
        b.add(new LdcInsnNode("corrupt fiber state: bad resume point in " + cls.name + "." + method.name));
        b.add(new MethodInsnNode(INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false));
        b.add(new InsnNode(ATHROW));
        return b;
    }

    /** What identifies a site's group: each saved local, as slot and type. */
    private static List<String> savedLocals(Site s) {
        List<String> key = new ArrayList<>();
        for (int n = s.saved.nextSetBit(0); n >= 0; n = s.saved.nextSetBit(n + 1)) {
            key.add(n + ":" + s.frame.getLocal(n).getType().getDescriptor());
        }
        return key;
    }

    /**
     * The site's saved locals pushed into the fiber, then the call's {@code PauseSite}, which the pause block
     * left on the operand stack (last, so that resuming pops it first), then the method returns (a zero value)
     * to its caller. The pushes are out of line, in the class's {@link SaveMethods} where it can have them.
     */
    private InsnList saveLocals(Site s) {
        InsnList b = new InsnList();
        List<Type> types = new ArrayList<>();
        for (int n = s.saved.nextSetBit(0); n >= 0; n = s.saved.nextSetBit(n + 1)) {
            types.add(s.frame.getLocal(n).getType());
        }
        MethodInsnNode save = owner.saves().call(types);
        for (int n = s.saved.nextSetBit(0); n >= 0; n = s.saved.nextSetBit(n + 1)) {
            Type t = s.frame.getLocal(n).getType();
            b.add(new VarInsnNode(t.getOpcode(ILOAD), n));
            if (save == null) {
                b.add(push(t));
            }
        }
        b.add(new VarInsnNode(ALOAD, fiberSlot));
        b.add(save != null ? save
                : new MethodInsnNode(INVOKESTATIC, CONT, "pushResume", "(" + SITE_DESC + CONT_DESC + ")V", false));
        Type r = Type.getReturnType(method.desc);
        if (r.getSort() != Type.VOID) {
            b.add(zero(r));
        }
        b.add(new InsnNode(r.getOpcode(IRETURN)));
        return b;
    }

    /** The site's saved locals popped from the fiber, in reverse. */
    private InsnList restoreLocals(Site s) {
        InsnList b = new InsnList();
        int[] saved = s.saved.stream().toArray();
        for (int j = saved.length - 1; j >= 0; j--) {
            int n = saved[j];
            Type t = s.frame.getLocal(n).getType();
            b.add(pop(t));
            b.add(new VarInsnNode(t.getOpcode(ISTORE), n));
        }
        return b;
    }

    private void rewriteCall(Site s) {
        InsnList before = new InsnList();
        if (s.receiverTemp >= 0) {
            // Keep the receiver in a temporary: store the arguments, copy the receiver, reload them.
            Type[] args = Type.getArgumentTypes(s.originalDesc);
            int[] temps = new int[args.length];
            for (int a = 0; a < args.length; a++) {
                temps[a] = newTemp(args[a].getSize());
            }
            for (int a = args.length - 1; a >= 0; a--) {
                before.add(new VarInsnNode(args[a].getOpcode(ISTORE), temps[a]));
            }
            before.add(new InsnNode(DUP));
            before.add(new VarInsnNode(ASTORE, s.receiverTemp));
            for (int a = 0; a < args.length; a++) {
                before.add(new VarInsnNode(args[a].getOpcode(ILOAD), temps[a]));
            }
        }
        before.add(s.callLabel);
        before.add(new VarInsnNode(ALOAD, fiberSlot));
        method.instructions.insertBefore(s.call, before);
        s.call.desc = ClassWeaver.wovenDesc(s.call.desc);
        if (s.call.owner.equals(FIBER) && HAND_WOVEN_PRIMITIVES.contains(s.call.name)) {
            s.call.owner = HAND_WOVEN;
        }
        InsnList after = new InsnList();
        after.add(new VarInsnNode(ALOAD, fiberSlot));
        after.add(new FieldInsnNode(GETFIELD, CONT, "mode", "I"));
        after.add(new JumpInsnNode(IFGT, s.pauseLabel));
        method.instructions.insert(s.call, after);
    }

    /**
     * Saves this frame after the callee paused: receiver, stack (top first), and leaves the call's
     * {@code PauseSite} on the operand stack; the locals follow, then the site ({@link #saveLocals}). It is on
     * the call's line, so that a debugger stepping over a call that pauses stays there.
     */
    private InsnList pauseBlock(Site s, int k) {
        InsnList b = new InsnList();
        b.add(s.pauseLabel);
        b.add(lineNumber(lineOf(s.call, false), s.pauseLabel));
        Type ret = Type.getReturnType(s.originalDesc);
        if (ret.getSize() > 0) {
            b.add(new InsnNode(ret.getSize() == 2 ? POP2 : POP));
        }
        int refs = 0;
        if (s.receiverTemp >= 0) {
            b.add(new VarInsnNode(ALOAD, s.receiverTemp));
            b.add(push(Type.getObjectType("java/lang/Object")));
            refs++;
        }
        for (int i = s.stackBase - 1; i >= 0; i--) {
            BasicValue v = s.frame.getStack(i);
            if (isRebuildable(s, v)) {
                b.add(new InsnNode(v.getSize() == 2 ? POP2 : POP));
            } else {
                b.add(push(v.getType()));
                refs += isReference(v.getType()) ? 1 : 0;
            }
        }
        for (int n = s.saved.nextSetBit(0); n >= 0; n = s.saved.nextSetBit(n + 1)) {
            refs += isReference(s.frame.getLocal(n).getType()) ? 1 : 0;
        }
        b.add(pauseSite(site(s.call), k, refs));
        return b;
    }

    /** Whether {@link #push} saves a value of type {@code t} as a reference (not as a primitive). */
    private static boolean isReference(Type t) {
        return t.getSort() >= Type.ARRAY;
    }

    /**
     * Pushes the constant {@code PauseSite} of a call: an {@code invokedynamic} bound once to it, or in a class
     * file older than Java 7, which has no {@code invokedynamic}, a lookup at each pause.
     */
    private InsnList pauseSite(String text, int point, int refs) {
        InsnList b = new InsnList();
        if ((cls.version & 0xFFFF) >= V1_7) {
            b.add(new InvokeDynamicInsnNode("pauseSite", "()" + SITE_DESC, SITE_BOOTSTRAP, text, point, refs));
        } else {
            b.add(new LdcInsnNode(text));
            b.add(new LdcInsnNode(point));
            b.add(new LdcInsnNode(refs));
            b.add(new MethodInsnNode(INVOKESTATIC, SITE, "of", "(Ljava/lang/String;II)" + SITE_DESC, false));
        }
        return b;
    }

    /** Where a call site is, as a stack trace shows it: {@code pkg.Class.method(File.java:42)}. */
    private String site(MethodInsnNode call) {
        int line = lineOf(call, false);
        String file = cls.sourceFile != null ? cls.sourceFile : "Unknown Source";
        return cls.name.replace('/', '.') + "." + method.name + "(" + file + (line > 0 ? ":" + line : "") + ")";
    }

    /**
     * Once its group's block has restored the saved locals: rebuilds the other locals, restores what
     * {@link #pauseBlock} saved, in reverse, and calls the callee again. Its label, on the call's line, is
     * placed by {@link #emit}.
     */
    private InsnList restoreBlock(Site s) {
        InsnList b = new InsnList();
        for (int n : s.rebuilt) {
            BasicValue v = s.frame.getLocal(n);
            b.add(rebuild(v));
            b.add(new VarInsnNode(v.getType().getOpcode(ISTORE), n));
        }
        for (int i = 0; i < s.stackBase; i++) {
            BasicValue v = s.frame.getStack(i);
            b.add(isRebuildable(s, v) ? rebuild(v) : pop(v.getType()));
        }
        if (s.hasReceiver) {
            if (s.receiverTemp >= 0) {
                b.add(pop(receiverType(s)));
                b.add(new InsnNode(DUP));
                b.add(new VarInsnNode(ASTORE, s.receiverTemp));
            } else {
                b.add(rebuild(s.receiver));
            }
        }
        for (Type a : Type.getArgumentTypes(s.originalDesc)) {
            b.add(zero(a)); // the callee restores what it needs itself
        }
        b.add(new JumpInsnNode(GOTO, s.callLabel));
        return b;
    }

    /**
     * The source line of {@code insn} (the nearest line number before it), or with {@code first} the
     * method's first line (the earliest line number at or before {@code insn}); -1 without line numbers.
     */
    private static int lineOf(AbstractInsnNode insn, boolean first) {
        int line = -1;
        for (AbstractInsnNode i = insn; i != null; i = i.getPrevious()) {
            if (i instanceof LineNumberNode) {
                line = ((LineNumberNode) i).line;
                if (!first) {
                    break;
                }
            }
        }
        return line;
    }

    /** A line number entry for the code from {@code start} on; none for a method compiled without them. */
    private static InsnList lineNumber(int line, LabelNode start) {
        InsnList b = new InsnList();
        if (line > 0) {
            b.add(new LineNumberNode(line, start));
        }
        return b;
    }

    private Type receiverType(Site s) {
        Type t = s.receiver.getType();
        if (t == null || t.getInternalName().equals("null")) {
            return Type.getObjectType(s.call.owner);
        }
        return t;
    }

    private InsnList rebuild(BasicValue v) {
        InsnList b = new InsnList();
        Object c = TypedValue.constantOf(v);
        if (c == TypedValue.NULL) {
            b.add(new InsnNode(ACONST_NULL));
        } else if (c != null) {
            b.add(new LdcInsnNode(c));
        } else {
            b.add(new VarInsnNode(v.getType().getOpcode(ILOAD), TypedValue.localOf(v)));
        }
        return b;
    }

    private InsnList push(Type t) {
        InsnList b = new InsnList();
        b.add(new VarInsnNode(ALOAD, fiberSlot));
        b.add(pushCall(t));
        return b;
    }

    /** The call that pushes a value of type {@code t} (then the fiber) onto the fiber's saved stacks. */
    static MethodInsnNode pushCall(Type t) {
        String name;
        String desc;
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.BYTE: case Type.CHAR: case Type.SHORT: case Type.INT:
                name = "pushInt"; desc = "(I" + CONT_DESC + ")V"; break;
            case Type.LONG: name = "pushLong"; desc = "(J" + CONT_DESC + ")V"; break;
            case Type.FLOAT: name = "pushFloat"; desc = "(F" + CONT_DESC + ")V"; break;
            case Type.DOUBLE: name = "pushDouble"; desc = "(D" + CONT_DESC + ")V"; break;
            default: name = "pushRef"; desc = "(Ljava/lang/Object;" + CONT_DESC + ")V"; break;
        }
        return new MethodInsnNode(INVOKESTATIC, CONT, name, desc, false);
    }

    private InsnList pop(Type t) {
        InsnList b = new InsnList();
        b.add(new VarInsnNode(ALOAD, fiberSlot));
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.BYTE: case Type.CHAR: case Type.SHORT: case Type.INT:
                b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popInt", "()I", false));
                break;
            case Type.LONG:
                b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popLong", "()J", false));
                break;
            case Type.FLOAT:
                b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popFloat", "()F", false));
                break;
            case Type.DOUBLE:
                b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popDouble", "()D", false));
                break;
            default:
                b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popRef", "()Ljava/lang/Object;", false));
                if (!t.getDescriptor().equals("Ljava/lang/Object;")) {
                    b.add(new TypeInsnNode(CHECKCAST, t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName()));
                }
        }
        return b;
    }

    private static AbstractInsnNode zero(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.BYTE: case Type.CHAR: case Type.SHORT: case Type.INT:
                return new InsnNode(ICONST_0);
            case Type.LONG: return new InsnNode(LCONST_0);
            case Type.FLOAT: return new InsnNode(FCONST_0);
            case Type.DOUBLE: return new InsnNode(DCONST_0);
            default: return new InsnNode(ACONST_NULL);
        }
    }
}
