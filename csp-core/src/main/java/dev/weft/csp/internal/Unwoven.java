package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.abi.Continuation;
import java.util.regex.Pattern;

/**
 * Turns the linkage error that unwoven pausable code causes (or code woven for another version of the
 * runtime) into a message saying how to weave.
 */
public final class Unwoven {
    private Unwoven() {
    }

    /**
     * Explains {@code e} if it comes from a missing woven form: its message names the fiber type, or it has
     * no message at all (the JVM gives none when the process itself lacks {@code run(Fiber)}).
     */
    public static Throwable explain(LinkageError e, Object process) {
        if (e instanceof BootstrapMethodError) { // a pause site's invokedynamic: what its linkage lacked
            Throwable cause = e.getCause();
            String lacked = cause instanceof LinkageError ? cause.getMessage() : null;
            if (lacked == null || !namesTheAbi(lacked)) {
                return e;
            }
            return wovenForAnotherVersion(e, process, lacked);
        }
        String m = e.getMessage();
        if (m != null && namesTheAbi(m)) {
            return wovenForAnotherVersion(e, process, m);
        }
        if (m != null && !m.contains(Fiber.class.getName())) {
            return e;
        }
        String what = m != null ? m : process.getClass().getName() + " has no woven run(Fiber)";
        if (agentRunning()) {
            return new IllegalStateException("pausable code ran unwoven (" + what + "): the weft agent is running"
                    + " but left the class unwoven; why was printed on standard error as it loaded, in lines"
                    + " starting with 'weft agent:'", e);
        }
        return new IllegalStateException("pausable code ran unwoven (" + what + "). Weave it with"
                + " the Maven goal weave of dev.weft:csp-maven-plugin (and weave-main, for builds that stop before the tests),"
                + " run with -javaagent:csp-weaver.jar, or weave"
                + " the classes with java -jar csp-weaver.jar IN... -d OUT", e);
    }

    /** The package of the weaver's ABI: woven code links against it, and nothing else links against it. */
    private static final String ABI = Continuation.class.getPackageName() + ".";
    /** Where ABI versions 1 to 5 had it (a class file names it with slashes, a missing member with dots). */
    private static final String FORMER_ABI = "dev.weft.csp.runtime.";

    /** Where ABI versions 1 to 5 had the hand-woven forms and the thread-mode bridges' entry, now not public. */
    private static final Pattern FORMER_FIBER_ABI = Pattern.compile(
            "dev\\.weft\\.csp\\.Fiber\\.(forThread\\(|\\w+\\([^)]*dev\\.weft\\.csp\\.Fiber\\))");

    /** Whether a linkage error's message names the ABI, today's or a former one's. */
    private static boolean namesTheAbi(String message) {
        String dotted = message.replace('/', '.');
        return dotted.contains(ABI) || dotted.contains(FORMER_ABI + "Continuation")
                || dotted.contains(FORMER_ABI + "PauseSite") || FORMER_FIBER_ABI.matcher(dotted).find();
    }

    /** Names the woven class whose linkage failed (the top of the error's stack) and what it lacked. */
    private static IllegalStateException wovenForAnotherVersion(LinkageError e, Object process, String lacked) {
        StackTraceElement[] at = e.getStackTrace();
        String who = at.length > 0 ? at[0].getClassName() : process.getClass().getName();
        return new IllegalStateException(who + " was woven by another version of csp-weaver than this csp-core"
                + " expects (missing " + lacked + "). Weave it again with the csp-weaver of csp-core's version", e);
    }

    /** Set by csp-weaver's agent (dev.weft.weaver.agent.WeftAgent) as it installs itself. */
    static final String AGENT_PROPERTY = "dev.weft.agent";

    private static boolean agentRunning() {
        return System.getProperty(AGENT_PROPERTY) != null;
    }
}
