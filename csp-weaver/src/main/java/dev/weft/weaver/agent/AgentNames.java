package dev.weft.weaver.agent;

/**
 * The classes the agent never weaves: the JDK's (the weaver never weaves JDK code), Byte Buddy's, the
 * weaver's own (with the libraries shaded into it), and classes of the bootstrap loader or without a name.
 * Decided from the name alone so that it costs nothing for the many classes a JVM loads; this class depends
 * on nothing, so that the agent's start-up loads nothing more for it.
 */
final class AgentNames {
    private static final String[] IGNORED_PREFIXES = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "net.bytebuddy.", "dev.weft.weaver.",
    };

    private AgentNames() {
    }

    /**
     * Whether the class named {@code name} (binary {@code a.b.C} or internal {@code a/b/C} form), defined by
     * {@code loader}, is never woven.
     */
    static boolean ignores(String name, ClassLoader loader) {
        if (name == null || loader == null) {
            return true;
        }
        String binary = name.replace('/', '.');
        for (String prefix : IGNORED_PREFIXES) {
            if (binary.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
