package dev.weft.csp.internal;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;

/** A process with a name of its own, for {@link Weft#spawn(String, CSProcess)}: dumps and reports show it. */
public final class NamedProcess implements CSProcess {
    final String name;
    private final CSProcess process;

    public NamedProcess(String name, CSProcess process) {
        this.name = name;
        this.process = process;
    }

    @Override
    @Pausable
    public void run() {
        process.run();
    }
}
