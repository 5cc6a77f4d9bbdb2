package dev.weft.weaver;

import java.util.Objects;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * A value in the frame analysis: its type plus what lets the weaver rebuild it on resume instead of
 * saving it: a known constant, or "a copy of local variable n". An object under construction (between
 * {@code new} and its constructor call) is marked with the {@code new} instruction that made it.
 */
final class TypedValue extends BasicValue {
    /** Marker for the {@code null} constant (a null reference is a constant too). */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** The constant this value is on every path, or null if unknown. */
    final Object constant;
    /** The local variable this value equals on every path, or -1. */
    final int local;
    /** The {@code NEW} instruction whose object this is, while uninitialised; else null. */
    final AbstractInsnNode newInsn;

    TypedValue(Type type, Object constant, int local, AbstractInsnNode newInsn) {
        super(type);
        this.constant = constant;
        this.local = local;
        this.newInsn = newInsn;
    }

    static TypedValue of(Type type) {
        return new TypedValue(type, null, -1, null);
    }

    static Object constantOf(BasicValue v) {
        return v instanceof TypedValue ? ((TypedValue) v).constant : null;
    }

    static int localOf(BasicValue v) {
        return v instanceof TypedValue ? ((TypedValue) v).local : -1;
    }

    static boolean isUninitialized(BasicValue v) {
        return v instanceof TypedValue && ((TypedValue) v).newInsn != null;
    }

    /** This type with {@code from}'s constant, if it has one, but no local. */
    TypedValue withConstant(BasicValue from) {
        Object c = constantOf(from);
        return c == null && local == -1 ? this : new TypedValue(getType(), c, -1, newInsn);
    }

    TypedValue withLocal(int n) {
        return new TypedValue(getType(), constant, n, newInsn);
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof BasicValue) || !super.equals(o)) {
            return false;
        }
        BasicValue v = (BasicValue) o;
        return Objects.equals(constant, constantOf(v)) && local == localOf(v)
                && newInsn == (v instanceof TypedValue ? ((TypedValue) v).newInsn : null);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
