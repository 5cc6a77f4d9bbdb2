package dev.weft.weaver;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The out-of-line code that saves a paused frame's locals: {@code private static synthetic void
 * weft$save(PauseSite site, values..., Continuation fiber)} pushes each value into the fiber, then the site, one
 * method per shape of values, shared by every pause of the class that saves values of that shape.
 *
 * <p>Why out of line: a pause saves one call per value; inside the woven method that code would count against
 * the method's size in the JIT's inlining decisions and be compiled with it, although the common path, the one
 * that does not pause, never runs it. As a call it costs one load per value. Coverage tools skip synthetic
 * methods, so the save code adds no branch or line to a coverage report either.
 */
final class SaveMethods implements Opcodes {
    static final String NAME = "weft$save";
    /** The JVM's limit on parameter slots, less the site and the fiber. */
    private static final int MAX_VALUE_SLOTS = 255 - 2;
    private static final String CONT = Abi.CONT;
    private static final Type SITE = Type.getObjectType(Abi.SITE);
    private static final Type OBJECT = Type.getObjectType("java/lang/Object");

    private final ClassNode cls;
    private final Map<String, MethodNode> byDesc = new HashMap<>();

    SaveMethods(ClassNode cls) {
        this.cls = cls;
    }

    /**
     * The call that saves values of these types (pushed onto the operand stack after the site, before the fiber),
     * or null where saving must stay inline: an interface of a class file older than Java 8 has no static
     * methods, and the JVM limits a method to 255 parameter slots.
     */
    MethodInsnNode call(List<Type> values) {
        boolean itf = (cls.access & ACC_INTERFACE) != 0;
        int slots = values.stream().mapToInt(Type::getSize).sum();
        if ((itf && (cls.version & 0xFFFF) < V1_8) || slots > MAX_VALUE_SLOTS) {
            return null;
        }
        Type[] params = new Type[values.size() + 2];
        params[0] = SITE;
        for (int i = 0; i < values.size(); i++) {
            params[i + 1] = erased(values.get(i));
        }
        params[params.length - 1] = Type.getObjectType(CONT);
        String desc = Type.getMethodDescriptor(Type.VOID_TYPE, params);
        byDesc.computeIfAbsent(desc, d -> define(params));
        return new MethodInsnNode(INVOKESTATIC, cls.name, NAME, desc, itf);
    }

    /** The type a value is saved as: {@link ResumeCode#pushCall} saves every reference as an Object. */
    private static Type erased(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: case Type.BYTE: case Type.CHAR: case Type.SHORT: case Type.INT:
                return Type.INT_TYPE;
            case Type.LONG: case Type.FLOAT: case Type.DOUBLE:
                return t;
            default:
                return OBJECT;
        }
    }

    private MethodNode define(Type[] params) {
        MethodNode m = new MethodNode(ASM9, ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC, NAME,
                Type.getMethodDescriptor(Type.VOID_TYPE, params), null, null);
        int fiber = 0;
        for (Type p : params) {
            fiber += p.getSize();
        }
        fiber -= 1;
        int slot = 1;
        for (int i = 1; i < params.length - 1; i++) {
            m.instructions.add(new VarInsnNode(params[i].getOpcode(ILOAD), slot));
            m.instructions.add(new VarInsnNode(ALOAD, fiber));
            m.instructions.add(ResumeCode.pushCall(params[i]));
            slot += params[i].getSize();
        }
        m.instructions.add(new VarInsnNode(ALOAD, 0));
        m.instructions.add(new VarInsnNode(ALOAD, fiber));
        m.instructions.add(new MethodInsnNode(INVOKESTATIC, CONT, "pushResume",
                "(" + SITE.getDescriptor() + "L" + CONT + ";)V", false));
        m.instructions.add(new InsnNode(RETURN));
        m.maxLocals = fiber + 1;
        m.maxStack = 3;
        cls.methods.add(m);
        return m;
    }
}
