package dev.weft.weaver.agent;

import dev.weft.weaver.tool.ClassTransform;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
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
    /** The classes woven as they loaded, by loader: a retransformation must weave them again. */
    private final Map<ClassLoader, Set<String>> wovenAtLoad = Collections.synchronizedMap(new WeakHashMap<>());

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
            return wovenOrNull(loader, name, buffer, result);
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
            return wovenOrNull(loader, name, buffer, result);
        } catch (RuntimeException | IllegalClassFormatException reportedByTheListener) {
            return null;
        }
    }

    // A loaded class is woven again only if it was woven as it loaded: retransformation hands this
    // transformer the class file as it was before (weaving again gives the same methods, which the JVM
    // requires), and weaving a class loaded unwoven would add methods, which it forbids.
    private boolean mayNeedWeaving(ClassLoader loader, String name, Class<?> classBeingRedefined, byte[] buffer) {
        if (AgentNames.ignores(name, loader)) {
            return false;
        }
        if (classBeingRedefined != null && !wovenAtLoad(loader).contains(name)) {
            return false;
        }
        return !transforms.apply(loader).isWoven(buffer);
    }

    private byte[] wovenOrNull(ClassLoader loader, String name, byte[] buffer, byte[] result) {
        if (result == null || result == buffer || !transforms.apply(loader).isWoven(result)) {
            return null;
        }
        wovenAtLoad(loader).add(name);
        return result;
    }

    private Set<String> wovenAtLoad(ClassLoader loader) {
        return wovenAtLoad.computeIfAbsent(loader, l -> ConcurrentHashMap.newKeySet());
    }
}
