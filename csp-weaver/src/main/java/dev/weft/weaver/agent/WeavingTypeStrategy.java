package dev.weft.weaver.agent;

import dev.weft.weaver.WeaveException;
import dev.weft.weaver.tool.ClassTransform;
import java.io.IOException;
import java.security.ProtectionDomain;
import java.util.function.Function;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.inline.MethodNameTransformer;
import net.bytebuddy.utility.JavaModule;

/**
 * Byte Buddy's frozen redefinition (no member added, so other agents and retransformation see the shape
 * the engine made), plus the engine. This is the one place where Byte Buddy hands out the
 * {@link ClassFileLocator} of the class being loaded, whose first source is the JVM's class file buffer: the
 * engine weaves exactly those bytes, as the JVM (and any agent before this one) supplied them.
 */
final class WeavingTypeStrategy implements AgentBuilder.TypeStrategy {
    private final Function<ClassLoader, ClassTransform> transforms;
    private final AgentReporter reporter;

    WeavingTypeStrategy(Function<ClassLoader, ClassTransform> transforms, AgentReporter reporter) {
        this.transforms = transforms;
        this.reporter = reporter;
    }

    @Override
    public DynamicType.Builder<?> builder(TypeDescription type, ByteBuddy byteBuddy, ClassFileLocator locator,
            MethodNameTransformer methodNameTransformer, ClassLoader loader, JavaModule module,
            ProtectionDomain protectionDomain) {
        DynamicType.Builder<?> builder = AgentBuilder.TypeStrategy.Default.REDEFINE_FROZEN
                .builder(type, byteBuddy, locator, methodNameTransformer, loader, module, protectionDomain);
        byte[] woven = weave(type.getName(), locator, loader);
        return woven == null ? builder : builder.visit(new ReplayWovenClass(woven));
    }

    /** The woven class file, or null to leave the class as it is (nothing to weave, or errors reported). */
    private byte[] weave(String className, ClassFileLocator locator, ClassLoader loader) {
        byte[] original;
        try {
            original = locator.locate(className).resolve();
        } catch (IOException | IllegalStateException e) {
            reporter.failure(className, e);
            return null;
        }
        ClassTransform transform = transforms.apply(loader);
        if (transform.isWoven(original)) {
            return null;
        }
        try {
            byte[] woven = transform.weave(original);
            return woven == original ? null : woven;
        } catch (WeaveException e) {
            reporter.weaveErrors(className.replace('.', '/'), e.errors());
            return null;
        }
    }
}
