package dev.weft.weaver.agent;

import dev.weft.weaver.tool.ClassTransform;
import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.util.function.Function;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;

/**
 * The agent's weaving transformer, on Byte Buddy (see {@link WeftAgent} for how and why). A class of its own,
 * so that loading {@link WeftAgent} loads none of Byte Buddy: {@link LazyWeaving} builds it on first need.
 */
final class WeavingTransformer {
    private WeavingTransformer() {
    }

    /** The transformer, weaving through {@code transforms} (one per class loader). */
    static ClassFileTransformer create(Function<ClassLoader, ClassTransform> transforms, PrintStream err) {
        AgentReporter reporter = new AgentReporter(err);
        ClassFileTransformer byteBuddy = new AgentBuilder.Default(new ByteBuddy()
                        .with(TypeValidation.DISABLED)
                        .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE))
                .disableClassFormatChanges()
                .with(new WeavingTypeStrategy(transforms, reporter)) // after disableClassFormatChanges, which sets its own
                .with(AgentBuilder.RedefinitionStrategy.DISABLED)
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY) // describe from bytes, never load a class
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable throwable) {
                        reporter.failure(typeName, throwable);
                    }
                })
                .ignore(new AgentFilter())
                .type(ElementMatchers.any())
                .transform((builder, type, loader, module, domain) -> builder)
                .makeRaw();
        return new WovenOnly(byteBuddy, transforms);
    }
}
