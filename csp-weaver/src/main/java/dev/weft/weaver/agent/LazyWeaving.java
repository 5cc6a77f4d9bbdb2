package dev.weft.weaver.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.function.Supplier;

/**
 * The transformer the agent installs: it keeps start-up cheap. Classes the agent never weaves
 * ({@link AgentNames#ignores}) and classes that cannot need weaving ({@link ClassFileScan}) are answered at
 * once, without the engine; the weaving transformer (Byte Buddy, ASM, the weaver) is built when the first
 * class that may need it loads. A program that never loads such a class pays for a scan of each class's bytes.
 */
final class LazyWeaving implements ClassFileTransformer {
    private final Supplier<ClassFileTransformer> make;
    private volatile ClassFileTransformer weaving;

    LazyWeaving(Supplier<ClassFileTransformer> make) {
        this.make = make;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> classBeingRedefined,
            ProtectionDomain domain, byte[] buffer) throws IllegalClassFormatException {
        if (!mayNeedWeaving(loader, name, buffer)) {
            return null;
        }
        return weaving().transform(module, loader, name, classBeingRedefined, domain, buffer);
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> classBeingRedefined, ProtectionDomain domain,
            byte[] buffer) throws IllegalClassFormatException {
        if (!mayNeedWeaving(loader, name, buffer)) {
            return null;
        }
        return weaving().transform(loader, name, classBeingRedefined, domain, buffer);
    }

    private static boolean mayNeedWeaving(ClassLoader loader, String name, byte[] buffer) {
        return !AgentNames.ignores(name, loader) && ClassFileScan.mayNeedWeaving(buffer, loader);
    }

    /** Whether the weaving transformer has been built: a class that may need weaving has loaded. */
    boolean started() {
        return weaving != null;
    }

    private ClassFileTransformer weaving() {
        ClassFileTransformer w = weaving;
        if (w == null) {
            synchronized (this) {
                w = weaving;
                if (w == null) {
                    w = make.get();
                    weaving = w;
                }
            }
        }
        return w;
    }
}
