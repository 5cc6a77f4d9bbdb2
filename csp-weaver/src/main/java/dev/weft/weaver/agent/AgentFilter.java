package dev.weft.weaver.agent;

import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

/**
 * The classes the agent never weaves: the JDK's (the weaver never weaves JDK code), Byte Buddy's, the
 * weaver's own (with the libraries shaded into it), and classes of the bootstrap loader or without a name.
 * Decided from the name alone so that it costs nothing for the many classes a JVM loads.
 */
final class AgentFilter implements AgentBuilder.RawMatcher {
    private static final String[] IGNORED_PREFIXES = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "net.bytebuddy.", "dev.weft.weaver.",
    };

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

    @Override
    public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain) {
        return ignores(type.getName(), loader);
    }
}
