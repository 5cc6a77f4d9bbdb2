package dev.weft.net.launch;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Worker JVMs start from the launcher's AOT cache (JDK 25+, JEP 483 and 515: classes loaded and linked, and
 * methods profiled, ahead of time): a launcher started with {@code -XX:AOTCache=app.aot} passes that option on,
 * with {@code -XX:AOTMode}, to the JVMs it starts. They run the same JDK on the same class path, which is what a
 * cache is valid for, so one cache, trained by a run of the launcher (docs/startup.md), serves every worker.
 */
final class AotCacheFlags {
    private AotCacheFlags() {
    }

    /** The AOT cache options of this JVM, to give the workers. */
    static List<String> ofThisJvm() {
        return of(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /**
     * The options among a JVM's that make a JVM start from an AOT cache. Not those that record one
     * ({@code -XX:AOTCacheOutput}, {@code -XX:AOTConfiguration}): the launcher's training run records the cache,
     * and its workers must not write the same file.
     */
    static List<String> of(List<String> jvmArgs) {
        return jvmArgs.stream().filter(a -> a.startsWith("-XX:AOTCache=") || a.startsWith("-XX:AOTMode=")).toList();
    }
}
