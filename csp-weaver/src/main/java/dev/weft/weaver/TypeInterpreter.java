package dev.weft.weaver;

import java.util.List;
import java.util.Objects;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.SimpleVerifier;

/**
 * ASM's type-checking interpreter, with the class hierarchy read from class files (never loaded), and
 * with constants, local copies and objects under construction tracked (see {@link TypedValue}).
 */
final class TypeInterpreter extends SimpleVerifier {
    private final ClassHierarchy hierarchy;

    TypeInterpreter(ClassHierarchy hierarchy, Type currentClass, Type superClass, List<Type> interfaces,
                    boolean isInterface) {
        super(ASM9, currentClass, superClass, interfaces, isInterface);
        this.hierarchy = hierarchy;
    }

    @Override
    public BasicValue newValue(Type type) {
        BasicValue v = super.newValue(type);
        if (v == null || v == BasicValue.UNINITIALIZED_VALUE || v == BasicValue.RETURNADDRESS_VALUE) {
            return v;
        }
        return v instanceof TypedValue ? v : TypedValue.of(v.getType());
    }

    @Override
    public BasicValue newOperation(AbstractInsnNode insn) throws AnalyzerException {
        BasicValue v = super.newOperation(insn);
        Object c = constant(insn);
        if (insn.getOpcode() == Opcodes.NEW) {
            return new TypedValue(Type.getObjectType(((TypeInsnNode) insn).desc), null, -1, insn);
        }
        return c == null ? v : new TypedValue(v.getType(), c, -1, null);
    }

    private static Object constant(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        switch (op) {
            case ACONST_NULL: return TypedValue.NULL;
            case ICONST_M1: case ICONST_0: case ICONST_1: case ICONST_2: case ICONST_3: case ICONST_4:
            case ICONST_5: return op - ICONST_0;
            case LCONST_0: case LCONST_1: return (long) (op - LCONST_0);
            case FCONST_0: case FCONST_1: case FCONST_2: return (float) (op - FCONST_0);
            case DCONST_0: case DCONST_1: return (double) (op - DCONST_0);
            case BIPUSH: case SIPUSH: return ((IntInsnNode) insn).operand;
            case LDC: {
                Object c = ((LdcInsnNode) insn).cst;
                return c instanceof Handle || c instanceof org.objectweb.asm.ConstantDynamic ? null : c;
            }
            default: return null;
        }
    }

    @Override
    public BasicValue copyOperation(AbstractInsnNode insn, BasicValue value) throws AnalyzerException {
        BasicValue v = super.copyOperation(insn, value);
        int op = insn.getOpcode();
        if (op >= ILOAD && op <= ALOAD && v instanceof TypedValue) {
            return ((TypedValue) v).withLocal(((VarInsnNode) insn).var);
        }
        if (op >= ILOAD && op <= ALOAD && v != null && v.getType() != null) {
            return new TypedValue(v.getType(), null, ((VarInsnNode) insn).var, null);
        }
        return v;
    }

    @Override
    public BasicValue merge(BasicValue a, BasicValue b) {
        if (a.equals(b)) {
            return a;
        }
        if (TypedValue.isUninitialized(a) || TypedValue.isUninitialized(b)) {
            return BasicValue.UNINITIALIZED_VALUE;
        }
        BasicValue t = super.merge(plain(a), plain(b));
        if (t == BasicValue.UNINITIALIZED_VALUE || t.getType() == null) {
            return BasicValue.UNINITIALIZED_VALUE;
        }
        Object c = Objects.equals(TypedValue.constantOf(a), TypedValue.constantOf(b)) ? TypedValue.constantOf(a) : null;
        int l = TypedValue.localOf(a) == TypedValue.localOf(b) ? TypedValue.localOf(a) : -1;
        return new TypedValue(t.getType(), c, l, null);
    }

    private static BasicValue plain(BasicValue v) {
        return v instanceof TypedValue ? new BasicValue(v.getType()) : v;
    }

    /**
     * The input was verified when it was compiled: trust it. Only primitive kinds must match; reference
     * types are not checked (the frames written later are computed from the class hierarchy anyway).
     */
    @Override
    protected boolean isSubTypeOf(BasicValue value, BasicValue expected) {
        Type e = expected.getType();
        Type v = value.getType();
        if (e == null || v == null) {
            return e == v;
        }
        boolean eRef = e.getSort() == Type.OBJECT || e.getSort() == Type.ARRAY;
        boolean vRef = v.getSort() == Type.OBJECT || v.getSort() == Type.ARRAY;
        return eRef ? vRef : e.equals(v);
    }

    @Override
    protected boolean isInterface(Type type) {
        return type.getSort() == Type.OBJECT && hierarchy.isInterface(type.getInternalName());
    }

    @Override
    protected Type getSuperClass(Type type) {
        if (type.getSort() != Type.OBJECT) {
            return Type.getObjectType("java/lang/Object");
        }
        String s = hierarchy.superName(type.getInternalName());
        return s == null ? null : Type.getObjectType(s);
    }

    @Override
    protected boolean isAssignableFrom(Type type1, Type type2) {
        if (type1.equals(type2)) {
            return true;
        }
        if (type1.getSort() == Type.OBJECT && type2.getSort() == Type.OBJECT) {
            String a = type1.getInternalName();
            if (hierarchy.isInterface(a)) {
                return true; // the verifier treats interfaces as Object
            }
            return hierarchy.isSubtype(type2.getInternalName(), a);
        }
        if (type1.getSort() == Type.ARRAY && type2.getSort() == Type.ARRAY) {
            Type e1 = type1.getElementType();
            Type e2 = type2.getElementType();
            if (type1.getDimensions() == type2.getDimensions()) {
                return isAssignableFrom(e1, e2);
            }
            return type1.getDimensions() < type2.getDimensions() && e1.getSort() == Type.OBJECT
                    && isAssignableFrom(e1, Type.getObjectType("java/lang/Object"));
        }
        if (type1.getSort() == Type.OBJECT && type2.getSort() == Type.ARRAY) {
            String a = type1.getInternalName();
            return a.equals("java/lang/Object") || a.equals("java/lang/Cloneable") || a.equals("java/io/Serializable");
        }
        return false;
    }

    @Override
    protected Class<?> getClass(Type type) {
        throw new IllegalStateException("the weaver never loads classes: " + type);
    }
}
