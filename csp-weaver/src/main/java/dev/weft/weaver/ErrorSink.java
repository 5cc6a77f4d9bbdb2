package dev.weft.weaver;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The errors found in one class, each with its file, line and method. Every phase reports here and goes on, so
 * that one build lists every error; weaving fails once all phases have run.
 */
final class ErrorSink {
    private final ClassNode cls;
    private final List<WeaveError> errors = new ArrayList<>();

    ErrorSink(ClassNode cls) {
        this.cls = cls;
    }

    /** An error at {@code at} in {@code m} (its line; before the first line or with no instruction, the method's). */
    void error(MethodNode m, AbstractInsnNode at, String message) {
        error(m, lineOf(m, at), message);
    }

    void error(MethodNode m, int line, String message) {
        errors.add(new WeaveError(sourceFile(), line, Names.method(cls.name, m.name), message));
    }

    /** Fails with every error reported, in line order, if there is any. */
    void throwIfAny() {
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparingInt(WeaveError::line));
            throw new WeaveException(errors);
        }
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    /** The source file the class names, or its class file's name. */
    String sourceFile() {
        if (cls.sourceFile != null) {
            return cls.sourceFile;
        }
        return cls.name.substring(cls.name.lastIndexOf('/') + 1) + ".class";
    }

    /**
     * The line of {@code insn} in {@code m}; for code before the first line number (what the weaver inserts
     * at the method's entry) or no instruction at all, the method's first line.
     */
    static int lineOf(MethodNode m, AbstractInsnNode insn) {
        for (AbstractInsnNode i = insn; i != null; i = i.getPrevious()) {
            if (i instanceof LineNumberNode) {
                return ((LineNumberNode) i).line;
            }
        }
        return firstLine(m);
    }

    static int firstLine(MethodNode m) {
        for (AbstractInsnNode i : m.instructions) {
            if (i instanceof LineNumberNode) {
                return ((LineNumberNode) i).line;
            }
        }
        return 0;
    }
}
