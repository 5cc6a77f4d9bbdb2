package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.Weft;

/**
 * Names a fiber's process for dumps and reports: the name given to {@link Weft#spawn(String, CSProcess)},
 * the class of the process, or, for a lambda, {@code lambda in com.acme.Foo.bar}: the method the lambda is
 * written in. A lambda's class does not tell its method, but its fiber's outermost saved frame does once it has
 * paused; since each lambda in the source has a class of its own, the name learned is kept for that class,
 * and every fiber of the same lambda has it from then on.
 */
public final class ProcessNames {
    /** Per lambda class, the method it is written in once a fiber of it has paused (a one-slot box). */
    private static final ClassValue<String[]> LAMBDA_METHODS = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            return new String[1];
        }
    };
    private static final String LAMBDA = "lambda in ";

    private ProcessNames() {
    }

    /** The name of {@code process}, run by {@code fiber}. */
    public static String of(Object process, Fiber fiber) {
        if (process == null) {
            return "?";
        }
        Object shown = process instanceof WrappedProcess ? ((WrappedProcess) process).wrapped() : process;
        if (shown instanceof NamedProcess) {
            return ((NamedProcess) shown).name;
        }
        String type = shown.getClass().getName();
        int lambda = type.indexOf("$$Lambda");
        if (lambda < 0) {
            return type;
        }
        String[] learned = LAMBDA_METHODS.get(shown.getClass());
        if (learned[0] == null) {
            learned[0] = lambdaMethod(fiber.pauseSites()); // a benign race: every fiber finds the same
        }
        return LAMBDA + (learned[0] != null ? learned[0] : type.substring(0, lambda));
    }

    /**
     * The method a lambda is written in ({@code com.acme.Foo.bar} for {@code lambda$bar$0}), from a paused
     * fiber's saved frames, innermost first ({@code pkg.Class.method(File.java:42)}): its outermost frame
     * outside Weft's own wrapper. Null if there is none (the fiber runs, or never paused, or runs a method
     * reference).
     */
    private static String lambdaMethod(String[] sites) {
        for (int i = sites.length - 1; i >= 0; i--) {
            String site = sites[i];
            int paren = site.indexOf('(');
            int dot = paren < 0 ? -1 : site.lastIndexOf('.', paren);
            if (dot < 0) {
                return null;
            }
            String cls = site.substring(0, dot);
            if (cls.startsWith("dev.weft.csp.Task") || cls.equals("dev.weft.csp.Parallel$RangeBranch")) {
                continue; // the wrappers' frames
            }
            String method = site.substring(dot + 1, paren);
            if (!method.startsWith("lambda$")) {
                return null;
            }
            int end = method.indexOf('$', "lambda$".length());
            return cls + "." + method.substring("lambda$".length(), end < 0 ? method.length() : end);
        }
        return null;
    }
}
