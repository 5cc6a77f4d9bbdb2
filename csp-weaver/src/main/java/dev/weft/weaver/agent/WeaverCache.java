package dev.weft.weaver.agent;

import dev.weft.weaver.ClassFinder;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassTransform;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * One engine per class loader, each resolving callees through its loader's resources. Keys are weak, and
 * the engine reaches its loader only through a weak reference: a value that held its key strongly would keep
 * every class loader (and all its classes) alive forever, e.g. across redeployments in an application server.
 */
final class WeaverCache implements Function<ClassLoader, ClassTransform> {
    private final Map<ClassLoader, ClassTransform> byLoader = Collections.synchronizedMap(new WeakHashMap<>());
    private final boolean preemptive;

    WeaverCache() {
        this(false);
    }

    /** Engines that insert preemption checks at loop back-edges if {@code preemptive}. */
    WeaverCache(boolean preemptive) {
        this.preemptive = preemptive;
    }

    @Override
    public ClassTransform apply(ClassLoader loader) {
        return byLoader.computeIfAbsent(loader, l -> ClassTransform.of(new Weaver(resourcesOf(l), preemptive)));
    }

    private static ClassFinder resourcesOf(ClassLoader loader) {
        if (loader == null) {
            return ClassFinder.of(null);
        }
        WeakReference<ClassLoader> ref = new WeakReference<>(loader);
        return name -> {
            ClassLoader l = ref.get();
            return l == null ? null : ClassFinder.of(l).find(name);
        };
    }
}
