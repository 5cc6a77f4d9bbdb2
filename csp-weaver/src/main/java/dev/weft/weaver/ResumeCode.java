package dev.weft.weaver;

import static dev.weft.weaver.Abi.CONT;
import static dev.weft.weaver.Abi.CONT_DESC;
import static dev.weft.weaver.Abi.FIBER;
import static dev.weft.weaver.Abi.HAND_WOVEN;
import static dev.weft.weaver.Abi.HAND_WOVEN_PRIMITIVES;
import static dev.weft.weaver.Abi.SITE;
import static dev.weft.weaver.Abi.SITE_DESC;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
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
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * Emits the resumable form of a method from its planned {@link PauseSitePlan}s. Around each pausable call: the
 * fiber is passed as the last argument; after the call the fiber's mode is checked, and if the callee paused, an
 * out-of-line block saves what this frame needs after the call (live locals, operand stack values, the call's
 * receiver, the resume point) and returns. A prelude at the method's entry, when the fiber is resuming, goes on to
 * a dispatcher that restores those values and calls the callee again; otherwise it jumps over it to the body.
 *
 * <p>Every jump of the resume code goes forward: the dispatcher and the restore blocks sit between the prelude and
 * the body, before every call they jump to. HotSpot counts each backward jump as a pass of a loop, and weighs
 * the methods waiting for its C2 compiler by invocations times loop passes: resume blocks at the end, jumping
 * back to their calls, made every woven method look like a hot loop (one pass per resume), and C2 compiled the
 * woven processes, and every woven wrapper around them, before the scheduler's loop and the channels, which
 * the hops of a short program then ran in unoptimised code.
 */
final class ResumeCode implements Opcodes {
    /** Binds the {@code invokedynamic} that gives a pause block its call's constant site. */
    private static final Handle SITE_BOOTSTRAP = new Handle(H_INVOKESTATIC, SITE, "bootstrap",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;II)"
                    + "Ljava/lang/invoke/CallSite;", false);

    private final ClassNode cls;
    private final MethodNode method;
    private final int fiberSlot;
    private final SaveMethods saves;
    private final ClassHierarchy hierarchy;
    private final IntUnaryOperator newTemp;

    ResumeCode(ClassNode cls, MethodNode method, int fiberSlot, SaveMethods saves, ClassHierarchy hierarchy,
            IntUnaryOperator newTemp) {
        this.cls = cls;
        this.method = method;
        this.fiberSlot = fiberSlot;
        this.saves = saves;
        this.hierarchy = hierarchy;
        this.newTemp = newTemp;
    }

    private int newTemp(int size) {
        return newTemp.applyAsInt(size);
    }

    /**
     * Sites that save the same locals (same slots, same types) share the code that saves and restores them:
     * a site's own pause block saves its receiver and stack, then jumps with its {@code PauseSite} on the
     * operand stack to its group's block, which saves the locals, then the site, and returns; on resume, the group's block restores the locals and switches on
     * the resume point to the site's own restore block. A method with many locals live across many pauses
     * then grows with the number of distinct live sets, not with sites times locals.
     */
    private static final class Group {
        final List<Integer> points = new ArrayList<>();
        final PauseSitePlan model;                   // any site of the group: the locals and their types
        final LabelNode saveLabel = new LabelNode();
        final LabelNode restoreLabel = new LabelNode();

        Group(PauseSitePlan model) {
            this.model = model;
        }

        /** Whether the group's sites share one block (else each site has its own, as a goto costs too). */
        boolean shared() {
            return points.size() > 1 && !model.saved.isEmpty();
        }
    }

    /** Rewrites the calls of {@code sites} and adds the prelude, the pause blocks and the resume dispatch. */
    void emit(List<PauseSitePlan> sites) {
        Group[] groupOf = groups(sites);
        List<Group> groups = List.of(groupOf).stream().distinct().toList();
        int point = groups.stream().anyMatch(Group::shared) ? newTemp(1) : -1;
        InsnList outOfLine = new InsnList();
        int firstLine = lineOf(method.instructions.getLast(), true);
        for (int k = 0; k < sites.size(); k++) {
            PauseSitePlan s = sites.get(k);
            rewriteCall(s, k);
            if (s.tail) {
                continue; // its frame returns either way: nothing to save, and no branch
            }
            outOfLine.add(pauseBlock(s, k));
            if (groupOf[k].shared()) {
                outOfLine.add(new JumpInsnNode(GOTO, groupOf[k].saveLabel));
            } else {
                outOfLine.add(saveLocals(s));
            }
        }
        for (Group g : groups) {
            if (g.shared()) {
                // Shared by several calls' lines: like the dispatcher, on the method's first line.
                outOfLine.add(g.saveLabel);
                outOfLine.add(lineNumber(firstLine, g.saveLabel));
                outOfLine.add(saveLocals(g.model));
            }
        }
        // The prelude, then the resume code, then the body: see the class comment (every jump of it forward).
        InsnList prelude = new InsnList();
        LabelNode entry = new LabelNode();
        LabelNode body = new LabelNode();
        prelude.add(entry);
        prelude.add(lineNumber(firstLine, entry));
        prelude.add(new VarInsnNode(ALOAD, fiberSlot));
        prelude.add(new FieldInsnNode(GETFIELD, CONT, "mode", "I"));
        prelude.add(new JumpInsnNode(IFGE, body));
        prelude.add(dispatcher(firstLine, sites, groupOf, point));
        for (Group g : groups) {
            if (g.shared()) {
                prelude.add(g.restoreLabel);
                prelude.add(lineNumber(firstLine, g.restoreLabel));
                prelude.add(restoreLocals(g.model));
                prelude.add(new VarInsnNode(ILOAD, point));
                int[] keys = g.points.stream().mapToInt(Integer::intValue).toArray();
                LabelNode[] labels = new LabelNode[keys.length];
                for (int i = 0; i < keys.length; i++) {
                    labels[i] = sites.get(keys[i]).restoreLabel;
                }
                prelude.add(new LookupSwitchInsnNode(labels[labels.length - 1], keys, labels));
            }
            for (int k : g.points) {
                // On the method's first line, as the dispatcher: before the body, on the call's line, it would be the
                // line's first code, where a debugger puts a breakpoint set on that line (jdb does).
                prelude.add(sites.get(k).restoreLabel);
                prelude.add(lineNumber(firstLine, sites.get(k).restoreLabel));
                if (!g.shared()) {
                    prelude.add(restoreLocals(sites.get(k)));
                }
                prelude.add(restoreBlock(sites.get(k)));
            }
        }
        prelude.add(body);
        method.instructions.insert(prelude);
        method.instructions.add(outOfLine);
    }

    /** The group of each site (by resume point): sites that save the same locals are in one group. */
    private static Group[] groups(List<PauseSitePlan> sites) {
        Map<List<String>, Group> groups = new HashMap<>();
        Group[] groupOf = new Group[sites.size()];
        for (int k = 0; k < sites.size(); k++) {
            PauseSitePlan s = sites.get(k);
            groupOf[k] = groups.computeIfAbsent(savedLocals(s), key -> new Group(s));
            groupOf[k].points.add(k);
        }
        return groupOf;
    }

    /**
     * Pops the resume point (kept in local {@code point} when a group is shared) and jumps to the restore block of
     * its group or site. {@code popResume} checks that the point is one of this method's, so no switch here
     * needs a default of its own: each one's is one of its cases, never taken.
     */
    private InsnList dispatcher(int firstLine, List<PauseSitePlan> sites, Group[] groupOf, int point) {
        InsnList b = new InsnList();
        LabelNode dispatch = new LabelNode();
        b.add(dispatch);
        b.add(lineNumber(firstLine, dispatch)); // like the prelude: a debugger entering a resumed frame starts here
        b.add(new VarInsnNode(ALOAD, fiberSlot));
        b.add(intConstant(sites.size()));
        b.add(new MethodInsnNode(INVOKEVIRTUAL, CONT, "popResume", "(I)I", false));
        if (point >= 0) {
            b.add(new InsnNode(DUP));
            b.add(new VarInsnNode(ISTORE, point));
        }
        LabelNode[] targets = new LabelNode[sites.size()];
        for (int k = 0; k < targets.length; k++) {
            targets[k] = groupOf[k].shared() ? groupOf[k].restoreLabel : sites.get(k).restoreLabel;
        }
        b.add(new TableSwitchInsnNode(0, targets.length - 1, targets[targets.length - 1], targets));
        return b;
    }

    /** Pushes {@code n}, in the shortest instruction. */
    private static AbstractInsnNode intConstant(int n) {
        if (n >= -1 && n <= 5) {
            return new InsnNode(ICONST_0 + n);
        }
        return n == (byte) n ? new IntInsnNode(BIPUSH, n) : n == (short) n ? new IntInsnNode(SIPUSH, n)
                : new LdcInsnNode(n);
    }

    /** What identifies a site's group: each saved local, as slot and type. */
    private static List<String> savedLocals(PauseSitePlan s) {
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
    private InsnList saveLocals(PauseSitePlan s) {
        InsnList b = new InsnList();
        MethodInsnNode save = saves.call(s.savedTypes());
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
    private InsnList restoreLocals(PauseSitePlan s) {
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

    /**
     * Passes the fiber to the call, and after it tests whether the callee paused. A call in tail position
     * records its site in the fiber if the callee paused, without a branch: the JIT compiles a branch by its
     * profile, and one side never taken while profiled becomes a trap that deoptimizes the method the first
     * time it is taken (here: when a long-running callee first returns, the end of a process).
     */
    private void rewriteCall(PauseSitePlan s, int point) {
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
        s.call.desc = Abi.wovenDesc(s.call.desc);
        if (s.call.owner.equals(FIBER) && HAND_WOVEN_PRIMITIVES.contains(s.call.name)) {
            s.call.owner = HAND_WOVEN;
        }
        InsnList after = new InsnList();
        if (s.tail) {
            after.add(pauseSite(site(s.call), point, 0));
            after.add(new VarInsnNode(ALOAD, fiberSlot));
            after.add(new MethodInsnNode(INVOKESTATIC, CONT, "pushResumeIfPausing", "(" + SITE_DESC + CONT_DESC + ")V",
                    false));
        } else {
            after.add(new VarInsnNode(ALOAD, fiberSlot));
            after.add(new FieldInsnNode(GETFIELD, CONT, "mode", "I"));
            after.add(new JumpInsnNode(IFGT, s.pauseLabel));
        }
        method.instructions.insert(s.call, after);
    }

    /**
     * Saves this frame after the callee paused: receiver, stack (top first), and leaves the call's
     * {@code PauseSite} on the operand stack; the locals follow, then the site ({@link #saveLocals}). It is on
     * the call's line, so that a debugger stepping over a call that pauses stays there.
     */
    private InsnList pauseBlock(PauseSitePlan s, int k) {
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
            if (s.isRebuildable(v)) {
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
    private InsnList restoreBlock(PauseSitePlan s) {
        InsnList b = new InsnList();
        for (int n : s.rebuilt) {
            BasicValue v = s.frame.getLocal(n);
            b.add(rebuild(v));
            b.add(new VarInsnNode(v.getType().getOpcode(ISTORE), n));
        }
        for (int i = 0; i < s.stackBase; i++) {
            BasicValue v = s.frame.getStack(i);
            b.add(s.isRebuildable(v) ? rebuild(v) : pop(v.getType()));
        }
        if (s.hasReceiver) {
            if (s.receiverTemp >= 0) {
                b.add(pop(s.receiverType()));
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
                if (needsCast(t)) {
                    b.add(new TypeInsnNode(CHECKCAST, t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName()));
                }
        }
        return b;
    }

    /**
     * Whether a reference restored as {@code t} needs a {@code checkcast}: not to {@code Object}, nor to an
     * interface, which the verifier lets any reference stand for (it checks calls on it when they run). The value
     * is the one saved from that very slot, so a cast could not fail; and a cast to an interface is costly: it
     * searches the object's interfaces, and on JDK 17 the one-entry cache of the last interface found thrashes
     * as soon as the object is also cast to another, making every resume pay the search in unoptimised code.
     */
    private boolean needsCast(Type t) {
        return t.getSort() == Type.ARRAY
                || !t.getInternalName().equals("java/lang/Object") && !hierarchy.isInterface(t.getInternalName());
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
