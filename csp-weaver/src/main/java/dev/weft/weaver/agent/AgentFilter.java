package dev.weft.weaver.agent;

import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

/** {@link AgentNames} as Byte Buddy's matcher of the types it must ignore. */
final class AgentFilter implements AgentBuilder.RawMatcher {
    @Override
    public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain) {
        return AgentNames.ignores(type.getName(), loader);
    }
}
