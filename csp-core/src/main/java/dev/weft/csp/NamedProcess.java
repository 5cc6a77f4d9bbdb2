package dev.weft.csp;

/** A process with a name of its own, for {@link Weft#spawn(String, CSProcess)}: dumps and reports show it. */
final class NamedProcess implements CSProcess {
    final String name;
    private final CSProcess process;

    NamedProcess(String name, CSProcess process) {
        this.name = name;
        this.process = process;
    }

    @Override
    @Pausable
    public void run() {
        process.run();
    }
}
