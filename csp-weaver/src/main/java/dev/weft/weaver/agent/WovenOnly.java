package dev.weft.weaver.agent;

import dev.weft.weaver.tool.ClassTransform;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.function.Function;

/**
 * Around Byte Buddy's transformer: hands it only classes that may need weaving, and passes on its result
 * only when the engine wove the class. Every other class is left exactly as it was loaded (the transformer
 * answers null), so the JVM and the agents after this one see the original bytes, not a copy rewritten by
 * Byte Buddy. Byte Buddy rethrows what failed after its listener reported it; the class then stays as it
 * was, as the JVM would do anyway, but without relying on it.
 */
final class WovenOnly implements ClassFileTransformer {
    private final ClassFileTransformer byteBuddy;
    private final Function<ClassLoader, ClassTransform> transforms;

    WovenOnly(ClassFileTransformer byteBuddy, Function<ClassLoader, ClassTransform> transforms) {
        this.byteBuddy = byteBuddy;
        this.transforms = transforms;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> classBeingRedefined,
            ProtectionDomain domain, byte[] buffer) {
        try {
            if (!mayNeedWeaving(loader, name, classBeingRedefined, buffer)) {
                return null;
            }
            byte[] result = byteBuddy.transform(module, loader, name, classBeingRedefined, domain, buffer);
            return wovenOrNull(loader, buffer, result);
        } catch (RuntimeException | IllegalClassFormatException reportedByTheListener) {
            return null;
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> classBeingRedefined, ProtectionDomain domain,
            byte[] buffer) {
        try {
            if (!mayNeedWeaving(loader, name, classBeingRedefined, buffer)) {
                return null;
            }
            byte[] result = byteBuddy.transform(loader, name, classBeingRedefined, domain, buffer);
            return wovenOrNull(loader, buffer, result);
        } catch (RuntimeException | IllegalClassFormatException reportedByTheListener) {
            return null;
        }
    }

    // A loaded class is never rewoven: weaving adds methods, which retransformation forbids. An agent
    // registered without retransformation keeps its first result for later retransformations anyway.
    private boolean mayNeedWeaving(ClassLoader loader, String name, Class<?> classBeingRedefined, byte[] buffer) {
        return classBeingRedefined == null && !AgentFilter.ignores(name, loader)
                && !transforms.apply(loader).isWoven(buffer);
    }

    private byte[] wovenOrNull(ClassLoader loader, byte[] buffer, byte[] result) {
        return result != null && result != buffer && transforms.apply(loader).isWoven(result) ? result : null;
    }
}
