package dev.weft.csp.test;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Runs a {@link WeftTest} method on simulated schedulers, under one seed or many (see {@link WeftTest}), and
 * fails it with a {@link ScheduleFailure} that names the seed to replay. The system property
 * {@code weft.test.seed} replays that seed in every {@code @WeftTest} method run.
 */
public final class WeftTestExtension implements InvocationInterceptor, ParameterResolver {
    /** The system property that replays one seed. */
    public static final String SEED_PROPERTY = "weft.test.seed";

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) {
        invocation.skip(); // the method runs as a fiber, once per seed, below
        Method method = call.getExecutable();
        WeftTest test = method.getAnnotation(WeftTest.class);
        TestProcess body = new WovenTestMethod(call.getTarget().orElse(null), method, call.getArguments().toArray());
        Explorer explorer = new Explorer(test.preemption(), test.stepBudget());
        Long replay = replaySeed(test, System.getProperty(SEED_PROPERTY));
        ScheduleFailure failure = replay != null ? explorer.run(replay, body) : explorer.explore(0, test.runs(), body);
        if (failure != null) {
            throw failure;
        }
    }

    /** The seed to replay: {@code property} (the value of {@link #SEED_PROPERTY}) if set, else the annotation's. */
    static Long replaySeed(WeftTest test, String property) {
        if (property != null && !property.isBlank()) {
            try {
                return Long.parseLong(property.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + SEED_PROPERTY + " must be a number, got " + property, e);
            }
        }
        return test.seed() == WeftTest.EXPLORE ? null : test.seed();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == WeftTestContext.class;
    }

    /** A placeholder: each run passes its own context (see {@link WovenTestMethod}). */
    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return null;
    }
}
