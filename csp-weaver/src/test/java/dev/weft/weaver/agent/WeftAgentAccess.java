package dev.weft.weaver.agent;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;

/** The agent's transformer with the real engine, for tests in other packages. */
public final class WeftAgentAccess {
    private WeftAgentAccess() {
    }

    /** What {@code premain} installs, reporting to {@code err}. */
    public static ClassFileTransformer transformer(PrintStream err) {
        return WeavingTransformer.create(new WeaverCache(), err);
    }
}
