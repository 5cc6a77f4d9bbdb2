package dev.weft.weaver.cli;

import dev.weft.weaver.ClassFinder;
import dev.weft.weaver.WeaveError;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import dev.weft.weaver.tool.ClassTransform;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The weaver's command line: {@code java -jar csp-weaver.jar [-cp PATH] IN... -d OUT}; and
 * {@code java -jar csp-weaver.jar dump PID}, the fiber dump of a running JVM (see {@link DumpCommand}).
 *
 * <p>IN are class directories or jars; {@code -cp} names the libraries they call, as javac's does. OUT, a
 * directory or a jar ({@code -d app-woven.jar}), receives every class of IN, woven or copied unchanged, and
 * every other file, so that OUT alone replaces IN. The engine sees the classes of all INs first, then
 * {@code -cp}, then the JDK. Without csp-core on the classpath every call into it would be an error of its
 * own: the errors about missing classes are then summed up in one hint.
 *
 * <p>Exit status: 0 on success, with a one-line summary on standard output; 1 if weaving found errors,
 * printed one per line to standard error as {@code com/acme/Foo.java:42: message}; 2 for bad arguments,
 * with the usage.
 */
public final class WeaveCli {
    /** Success. */
    public static final int OK = 0;
    /** Weaving found errors, or an input could not be read or the output written. */
    public static final int FAILED = 1;
    /** The arguments are wrong. */
    public static final int USAGE = 2;

    /** A class of csp-core that any woven code needs at run time: its presence tells csp-core is there. */
    private static final String CSP_CORE_CLASS = "dev/weft/csp/Fiber";
    /** What a weave error about a missing class of csp-core says (ClassWeaver writes it). */
    private static final String NOT_ON_CLASSPATH = " is not on the weave classpath";
    private static final String CSP_CORE_PACKAGE = "class dev.weft.csp.";

    private WeaveCli() {
    }

    /** Whether {@code e} says that a class of csp-core is missing. */
    private static boolean missesCspCore(WeaveError e) {
        return e.message().contains(CSP_CORE_PACKAGE) && e.message().contains(NOT_ON_CLASSPATH);
    }

    /** Runs the command line and exits the JVM with its status. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the command line without exiting: for tests and for tools that embed the weaver.
     *
     * @return the exit status: {@link #OK}, {@link #FAILED} or {@link #USAGE}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, (classpath, preemptive) -> ClassTransform.of(new Weaver(classpath, preemptive)));
    }

    static int run(String[] args, PrintStream out, PrintStream err, Function<ClassFinder, ClassTransform> engine) {
        return run(args, out, err, (classpath, preemptive) -> engine.apply(classpath));
    }

    private static int run(String[] args, PrintStream out, PrintStream err,
            BiFunction<ClassFinder, Boolean, ClassTransform> engine) {
        if (args.length > 0 && args[0].equals("dump")) {
            return DumpCommand.run(args, out, err);
        }
        CliArguments a;
        try {
            a = CliArguments.parse(args);
        } catch (UsageException e) {
            err.println("weft: " + e.getMessage());
            err.println(CliArguments.USAGE);
            return USAGE;
        }
        if (a.help()) {
            out.println(CliArguments.USAGE);
            return OK;
        }
        List<Path> visible = new ArrayList<>(a.inputs());
        visible.addAll(a.classpath());
        WeaveCommand.Summary s;
        boolean cspCoreVisible;
        try (ClassPath cp = ClassPath.open(visible)) {
            cspCoreVisible = cp.find(CSP_CORE_CLASS) != null;
            s = new WeaveCommand(engine.apply(cp, a.preemptive()), err).run(a.inputs(), a.output());
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            err.println("weft: " + e.getMessage());
            return FAILED;
        }
        if (!s.errors().isEmpty()) {
            int missing = 0;
            for (WeaveError e : s.errors()) {
                if (!cspCoreVisible && missesCspCore(e)) {
                    missing++; // most likely csp-core's classes: said once below
                } else {
                    err.println(e);
                }
            }
            if (missing > 0) {
                err.println("weft: csp-core is not on the classpath; " + count(missing, "error")
                        + " naming a class that is not on the weave classpath left out: add csp-core's jar"
                        + " (e.g. -cp csp-core.jar) and weave again");
            }
            err.println("weft: " + count(s.errors().size(), "error") + ", nothing written for the classes that have them");
            return FAILED;
        }
        out.println(summary(s, a.output()));
        return OK;
    }

    private static String summary(WeaveCommand.Summary s, Path output) {
        StringBuilder b = new StringBuilder("weft: ")
                .append(count(s.classes(), "class")).append(", ").append(s.woven()).append(" woven");
        if (s.alreadyWoven() > 0) {
            b.append(" (").append(s.alreadyWoven()).append(" already woven)");
        }
        return b.append(", ").append(count(s.otherFiles(), "other file")).append(" -> ").append(output).toString();
    }

    private static String count(int n, String noun) {
        String plural = noun.endsWith("s") ? noun + "es" : noun + "s";
        return n + " " + (n == 1 ? noun : plural);
    }
}
