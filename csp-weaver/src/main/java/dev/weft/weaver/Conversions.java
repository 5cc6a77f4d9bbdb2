package dev.weft.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * The conversions a method reference applies between its interface's types and its target's: boxing,
 * unboxing, primitive widening and reference casts, as the JVM's lambda factory would apply them.
 */
final class Conversions implements Opcodes {
    private Conversions() {
    }

    /** Appends code turning a value of type {@code from} on the stack into one of type {@code to}. */
    static void convert(InsnList b, Type from, Type to) {
        if (from.equals(to)) {
            return;
        }
        if (to.getSort() == Type.VOID) {
            if (from.getSize() > 0) {
                b.add(new InsnNode(from.getSize() == 2 ? POP2 : POP));
            }
            return;
        }
        boolean fromPrim = isPrimitive(from);
        boolean toPrim = isPrimitive(to);
        if (fromPrim && toPrim) {
            widen(b, from, to);
        } else if (fromPrim) {
            Type box = boxOf(from);
            b.add(new MethodInsnNode(INVOKESTATIC, box.getInternalName(), "valueOf",
                    Type.getMethodDescriptor(box, from), false));
            if (!to.equals(box) && !to.getInternalName().equals("java/lang/Object")) {
                b.add(new TypeInsnNode(CHECKCAST, to.getInternalName()));
            }
        } else if (toPrim) {
            Type box = unboxable(from) ? from : boxOf(to);
            if (!box.equals(from)) {
                b.add(new TypeInsnNode(CHECKCAST, box.getInternalName()));
            }
            Type prim = primitiveOf(box);
            b.add(new MethodInsnNode(INVOKEVIRTUAL, box.getInternalName(), prim.getClassName() + "Value",
                    Type.getMethodDescriptor(prim), false));
            widen(b, prim, to);
        } else if (!to.getDescriptor().equals("Ljava/lang/Object;")) {
            b.add(new TypeInsnNode(CHECKCAST, to.getSort() == Type.ARRAY ? to.getDescriptor() : to.getInternalName()));
        }
    }

    private static boolean isPrimitive(Type t) {
        return t.getSort() < Type.ARRAY && t.getSort() != Type.VOID;
    }

    private static void widen(InsnList b, Type from, Type to) {
        int f = stackSort(from);
        int t = stackSort(to);
        if (f == t) {
            return;
        }
        int op;
        if (f == Type.INT) {
            op = t == Type.LONG ? I2L : t == Type.FLOAT ? I2F : I2D;
        } else if (f == Type.LONG) {
            op = t == Type.FLOAT ? L2F : L2D;
        } else {
            op = F2D;
        }
        b.add(new InsnNode(op));
    }

    private static int stackSort(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.BYTE: case Type.CHAR: case Type.SHORT: case Type.INT:
                return Type.INT;
            default:
                return t.getSort();
        }
    }

    private static final String[][] BOXES = {
        {"Z", "java/lang/Boolean"}, {"B", "java/lang/Byte"}, {"C", "java/lang/Character"},
        {"S", "java/lang/Short"}, {"I", "java/lang/Integer"}, {"J", "java/lang/Long"},
        {"F", "java/lang/Float"}, {"D", "java/lang/Double"},
    };

    private static Type boxOf(Type prim) {
        for (String[] p : BOXES) {
            if (p[0].equals(prim.getDescriptor())) {
                return Type.getObjectType(p[1]);
            }
        }
        throw new IllegalArgumentException("not a primitive: " + prim);
    }

    private static boolean unboxable(Type t) {
        for (String[] p : BOXES) {
            if (p[1].equals(t.getInternalName())) {
                return true;
            }
        }
        return false;
    }

    private static Type primitiveOf(Type box) {
        for (String[] p : BOXES) {
            if (p[1].equals(box.getInternalName())) {
                return Type.getType(p[0]);
            }
        }
        throw new IllegalArgumentException("not a box: " + box);
    }
}
