package dev.weft.csp.test;

import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * A {@code @WeftTest} method as a {@link TestProcess}: it calls the woven form of the method (the one that
 * takes the running {@link Fiber} last), so that the test body pauses and resumes as any woven code does.
 * Its own woven form is written by hand: it keeps no state across a pause, and on resume calls the method
 * again, which resumes where it paused.
 */
final class WovenTestMethod implements TestProcess {
    private final Method method;
    private final MethodHandle woven;
    private final Object[] arguments;
    private final int contextIndex;

    /**
     * {@code method} on {@code target} (null for a static one) with the {@code arguments} JUnit resolved; the
     * {@link WeftTestContext} among them is replaced by each run's own.
     */
    WovenTestMethod(Object target, Method method, Object[] arguments) {
        this.method = method;
        this.arguments = arguments.clone();
        Class<?>[] params = method.getParameterTypes();
        this.contextIndex = Arrays.asList(params).indexOf(WeftTestContext.class);
        Class<?>[] wovenParams = Arrays.copyOf(params, params.length + 1);
        wovenParams[params.length] = Fiber.class;
        Method w;
        try {
            w = method.getDeclaringClass().getDeclaredMethod(method.getName(), wovenParams);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the @WeftTest method " + describe(method) + " is not woven: mark it"
                    + " @Pausable and weave the test classes with csp-maven-plugin (its weave goal)", e);
        }
        try {
            w.setAccessible(true);
            MethodHandle h = MethodHandles.lookup().unreflect(w);
            this.woven = target == null ? h : h.bindTo(target);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException("cannot call the woven form of " + describe(method), e);
        }
    }

    private static String describe(Method m) {
        return m.getDeclaringClass().getName() + "." + m.getName();
    }

    /** Runs only as a fiber: a plain thread never calls it. */
    @Override
    @Pausable
    public void run(WeftTestContext ctx) {
        throw new UnsupportedOperationException(describe(method) + " runs only as a fiber of a simulated run");
    }

    /** Woven form of {@link #run(WeftTestContext)}: calls (or resumes) the woven test method. */
    public void run(WeftTestContext ctx, Fiber f) throws Exception {
        Object[] args = Arrays.copyOf(arguments, arguments.length + 1);
        if (contextIndex >= 0) {
            args[contextIndex] = ctx;
        }
        args[arguments.length] = f;
        try {
            woven.invokeWithArguments(args);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public String toString() {
        return describe(method);
    }
}
