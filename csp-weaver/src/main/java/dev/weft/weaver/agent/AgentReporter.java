package dev.weft.weaver.agent;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.tool.ErrorLocation;
import java.io.PrintStream;
import java.util.List;

/** Tells the user why a class was left unwoven: one line per problem on standard error, prefixed {@code weft agent:}. */
final class AgentReporter {
    private static final String PREFIX = "weft agent: ";
    private final PrintStream err;

    AgentReporter(PrintStream err) {
        this.err = err;
    }

    /** The engine found errors in class {@code internalName}, which stays unwoven. */
    void weaveErrors(String internalName, List<WeaveError> errors) {
        // One println per error: concurrent class loading must not interleave parts of lines.
        for (WeaveError e : errors) {
            err.println(PREFIX + ErrorLocation.locate(internalName + ".class", e));
        }
    }

    /** Weaving {@code className} failed for an unexpected reason (a bug or an unreadable library). */
    void failure(String className, Throwable t) {
        synchronized (err) {
            err.println(PREFIX + "cannot weave " + className.replace('/', '.') + ", left unwoven: " + t);
            t.printStackTrace(err);
        }
    }
}
