package dev.weft.weaver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * What the weaver knows about classes it does not transform: supertypes and which methods are pausable.
 * Read lazily from class files and cached; safe for concurrent use.
 */
final class ClassHierarchy {
    static final String PAUSABLE = "Ldev/weft/csp/Pausable;";
    private static final ClassInfo MISSING = new ClassInfo("?", null, new String[0], 0, Map.of(), null);

    private final ClassFinder finder;
    private final Map<String, ClassInfo> cache = new ConcurrentHashMap<>();

    ClassHierarchy(ClassFinder finder) {
        this.finder = finder;
    }

    /** A class as far as the weaver cares. */
    record ClassInfo(String name, String superName, String[] interfaces, int access,
                     Map<String, MethodInfo> methods, String sourceFile) {
        boolean isInterface() {
            return (access & Opcodes.ACC_INTERFACE) != 0;
        }
    }

    /** A method: its access flags and whether it carries {@code @Pausable}. */
    record MethodInfo(String owner, String name, String desc, int access, boolean pausable) {
        boolean isStatic() {
            return (access & Opcodes.ACC_STATIC) != 0;
        }

        boolean isPrivate() {
            return (access & Opcodes.ACC_PRIVATE) != 0;
        }
    }

    /** The class, or null if it is not on the classpath. */
    ClassInfo get(String name) {
        ClassInfo info = cache.computeIfAbsent(name, this::load);
        return info == MISSING ? null : info;
    }

    /** Registers the class being woven, so that its own (unwoven) shape is what lookups see. */
    void put(ClassInfo info) {
        cache.put(info.name(), info);
    }

    private ClassInfo load(String name) {
        if (name.startsWith("[")) {
            return MISSING;
        }
        byte[] bytes = finder.find(name);
        if (bytes == null) {
            return MISSING;
        }
        try {
            return read(new ClassReader(bytes));
        } catch (RuntimeException e) {
            return MISSING; // unreadable (e.g. too new) classes count as missing
        }
    }

    static ClassInfo read(ClassReader reader) {
        String[] header = new String[3];
        int[] access = new int[1];
        Map<String, MethodInfo> methods = new HashMap<>();
        Map<String, List<String>> forwards = new HashMap<>(); // synthetic method -> own methods it calls
        String className = reader.getClassName();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int acc, String name, String signature, String superName,
                              String[] interfaces) {
                access[0] = acc;
                header[0] = superName;
            }

            @Override
            public void visitSource(String source, String debug) {
                header[1] = source;
            }

            @Override
            public MethodVisitor visitMethod(int acc, String name, String desc, String signature,
                                             String[] exceptions) {
                String key = name + desc;
                methods.put(key, new MethodInfo(className, name, desc, acc, false));
                boolean forwarder = (acc & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) != 0;
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public AnnotationVisitor visitAnnotation(String annDesc, boolean visible) {
                        if (PAUSABLE.equals(annDesc)) {
                            methods.put(key, new MethodInfo(className, name, desc, acc, true));
                        }
                        return null;
                    }

                    @Override
                    public void visitMethodInsn(int op, String owner, String mName, String mDesc, boolean itf) {
                        if (forwarder && owner.equals(className)) {
                            forwards.computeIfAbsent(key, k -> new ArrayList<>()).add(mName + mDesc);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        // javac's bridges and accessors pause when the method they forward to does.
        forwards.forEach((key, callees) -> {
            MethodInfo m = methods.get(key);
            if (!m.pausable() && callees.stream().map(methods::get).anyMatch(c -> c != null && c.pausable())) {
                methods.put(key, new MethodInfo(m.owner(), m.name(), m.desc(), m.access(), true));
            }
        });
        // SKIP_DEBUG drops the source file; read it separately (cheap: header only).
        String[] source = new String[1];
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visitSource(String s, String debug) {
                source[0] = s;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        return new ClassInfo(className, header[0], reader.getInterfaces(), access[0], methods, source[0]);
    }

    /**
     * Finds the method a call {@code owner.name desc} reaches, as the JVM resolves it: the class, its
     * superclasses, then its superinterfaces. Returns null if none declares it.
     *
     * @throws MissingClassException if {@code owner} or a supertype needed for the answer is missing
     */
    MethodInfo resolve(String owner, String name, String desc) {
        ClassInfo start = require(owner);
        for (ClassInfo c = start; c != null; c = c.superName() == null ? null : require(c.superName())) {
            MethodInfo m = c.methods().get(name + desc);
            if (m != null) {
                return m;
            }
        }
        for (ClassInfo c = start; c != null; c = c.superName() == null ? null : require(c.superName())) {
            MethodInfo m = fromInterfaces(c.interfaces(), name, desc);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    private MethodInfo fromInterfaces(String[] interfaces, String name, String desc) {
        for (String i : interfaces) {
            ClassInfo ci = require(i);
            MethodInfo m = ci.methods().get(name + desc);
            if (m != null && !m.isStatic()) {
                return m;
            }
            m = fromInterfaces(ci.interfaces(), name, desc);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /**
     * Every method that {@code name desc} declared in {@code cls} overrides or implements: inherited,
     * non-private, non-static declarations in superclasses and superinterfaces.
     */
    void collectOverridden(ClassInfo cls, String name, String desc, List<MethodInfo> out) {
        if (cls.superName() != null) {
            overriddenIn(require(cls.superName()), name, desc, out);
        }
        for (String i : cls.interfaces()) {
            overriddenIn(require(i), name, desc, out);
        }
    }

    private void overriddenIn(ClassInfo c, String name, String desc, List<MethodInfo> out) {
        MethodInfo m = c.methods().get(name + desc);
        if (m != null && !m.isStatic() && !m.isPrivate()) {
            out.add(m);
            return; // what m itself overrides was checked when m's class was woven
        }
        collectOverridden(c, name, desc, out);
    }

    ClassInfo require(String name) {
        ClassInfo c = get(name);
        if (c == null) {
            throw new MissingClassException(name);
        }
        return c;
    }

    // ---- type queries for frame computation; unknown classes are treated as plain classes ----

    boolean isInterface(String name) {
        ClassInfo c = get(name);
        return c != null && c.isInterface();
    }

    String superName(String name) {
        ClassInfo c = get(name);
        return c == null ? (name.equals("java/lang/Object") ? null : "java/lang/Object") : c.superName();
    }

    /** Whether {@code sub} is {@code sup} or a subtype of it (classes and interfaces). */
    boolean isSubtype(String sub, String sup) {
        if (sub.equals(sup) || sup.equals("java/lang/Object")) {
            return true;
        }
        ClassInfo c = get(sub);
        if (c == null) {
            return false;
        }
        if (c.superName() != null && isSubtype(c.superName(), sup)) {
            return true;
        }
        for (String i : c.interfaces()) {
            if (isSubtype(i, sup)) {
                return true;
            }
        }
        return false;
    }

    /** The most specific common superclass (interfaces merge to Object, as the verifier does). */
    String commonSuperClass(String a, String b) {
        require(a); // frames built on a guessed hierarchy would not verify: refuse instead
        require(b);
        if (isSubtype(a, b) && !isInterface(b)) {
            return b;
        }
        if (isSubtype(b, a) && !isInterface(a)) {
            return a;
        }
        if (isInterface(a) || isInterface(b)) {
            return "java/lang/Object";
        }
        for (String s = a; s != null; s = superName(s)) {
            if (isSubtype(b, s)) {
                return s;
            }
        }
        return "java/lang/Object";
    }

    /** Thrown when a class needed to decide pausability is not on the classpath. */
    static final class MissingClassException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String className;

        MissingClassException(String className) {
            super(className);
            this.className = className;
        }
    }
}
