package dev.weft.weaver;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Makes each lambda and method reference of a pausable functional interface implement the interface's woven
 * method: its {@code invokedynamic} names the woven types, and its implementation is the woven lambda body or,
 * for a method reference, a woven adapter.
 */
final class LambdaRewriter implements Opcodes {
    private final ClassNode cls;
    private final Pausability pausability;
    private final ErrorSink errors;
    /** Weaves a new adapter's body in place, as a lambda body is. */
    private final Consumer<MethodNode> weaveInPlace;
    private int adapters;

    LambdaRewriter(ClassNode cls, Pausability pausability, ErrorSink errors, Consumer<MethodNode> weaveInPlace) {
        this.cls = cls;
        this.pausability = pausability;
        this.errors = errors;
        this.weaveInPlace = weaveInPlace;
    }

    /** Rewrites every pausable lambda of the class. */
    void rewriteAll() {
        for (Pausability.Lambda lambda : pausability.pausableLambdas()) {
            rewrite(lambda);
        }
    }

    private void rewrite(Pausability.Lambda lambda) {
        InvokeDynamicInsnNode indy = lambda.indy();
        Object[] args = indy.bsmArgs.clone();
        Handle impl = (Handle) args[1];
        args[0] = withFiber((Type) args[0]);
        args[2] = withFiber((Type) args[2]);
        args[1] = wovenImpl(lambda, impl);
        if (indy.bsm.getName().equals("altMetafactory") && args.length > 3) {
            int flags = (Integer) args[3];
            int i = 4;
            if ((flags & 2) != 0) { // FLAG_MARKERS
                i += 1 + (Integer) args[i];
            }
            if ((flags & 4) != 0) { // FLAG_BRIDGES
                int count = (Integer) args[i];
                for (int j = 0; j < count; j++) {
                    args[i + 1 + j] = withFiber((Type) args[i + 1 + j]);
                }
            }
        }
        indy.bsmArgs = args;
    }

    private static Type withFiber(Type methodType) {
        return Type.getMethodType(Abi.wovenDesc(methodType.getDescriptor()));
    }

    /**
     * The woven implementation of a lambda or method reference. A lambda body is woven itself; a method
     * reference goes through a woven adapter of this class, because the JVM's lambda class would use the
     * arguments (a receiver, a value to unbox) that a resumed call passes only as placeholders.
     */
    private Handle wovenImpl(Pausability.Lambda lambda, Handle impl) {
        MethodNode body = impl.getOwner().equals(cls.name) ? pausability.own(impl.getName(), impl.getDesc()) : null;
        if (body != null && pausability.isLambdaBody(body)) {
            return new Handle(impl.getTag(), impl.getOwner(), impl.getName(), Abi.wovenDesc(impl.getDesc()),
                    impl.isInterface());
        }
        return referenceAdapter(lambda, impl);
    }

    /** {@code static R weft$ref$N(captured..., params...)}, then woven: calls the reference's target. */
    private Handle referenceAdapter(Pausability.Lambda lambda, Handle impl) {
        InvokeDynamicInsnNode indy = lambda.indy();
        int tag = impl.getTag();
        Type instantiated = (Type) indy.bsmArgs[2];
        List<Type> params = new ArrayList<>(List.of(Type.getArgumentTypes(indy.desc)));
        params.addAll(List.of(instantiated.getArgumentTypes()));
        Type ret = instantiated.getReturnType();
        MethodNode a = new MethodNode(ASM9, ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC, "weft$ref$" + adapters++,
                Type.getMethodDescriptor(ret, params.toArray(new Type[0])), null, null);
        InsnList b = a.instructions;
        Type owner = Type.getObjectType(impl.getOwner());
        if (tag == H_NEWINVOKESPECIAL) {
            b.add(new TypeInsnNode(NEW, impl.getOwner()));
            b.add(new InsnNode(DUP));
        }
        List<Type> targetParams = new ArrayList<>();
        if (tag == H_INVOKEVIRTUAL || tag == H_INVOKEINTERFACE || tag == H_INVOKESPECIAL) {
            targetParams.add(owner);
        }
        Type target = Type.getMethodType(impl.getDesc());
        targetParams.addAll(List.of(target.getArgumentTypes()));
        int slot = 0;
        for (int i = 0; i < params.size(); i++) {
            Type p = params.get(i);
            b.add(new VarInsnNode(p.getOpcode(ILOAD), slot));
            slot += p.getSize();
            if (i < targetParams.size()) {
                Conversions.convert(b, p, targetParams.get(i));
            }
        }
        int op = switch (tag) {
            case H_INVOKESTATIC -> INVOKESTATIC;
            case H_INVOKEINTERFACE -> INVOKEINTERFACE;
            case H_INVOKESPECIAL, H_NEWINVOKESPECIAL -> INVOKESPECIAL;
            default -> INVOKEVIRTUAL;
        };
        b.add(new MethodInsnNode(op, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
        Conversions.convert(b, tag == H_NEWINVOKESPECIAL ? owner : target.getReturnType(), ret);
        b.add(new InsnNode(ret.getOpcode(IRETURN)));
        a.maxLocals = slot;
        a.maxStack = 2 * slot + 4;
        if (params.size() != targetParams.size()) {
            errors.error(lambda.in(), indy, "a method reference to " + Names.method(impl.getOwner(), impl.getName())
                    + " whose arguments do not match its interface one to one (varargs?): use a lambda");
        }
        cls.methods.add(a);
        weaveInPlace.accept(a);
        return new Handle(H_INVOKESTATIC, cls.name, a.name, a.desc, (cls.access & ACC_INTERFACE) != 0);
    }
}
