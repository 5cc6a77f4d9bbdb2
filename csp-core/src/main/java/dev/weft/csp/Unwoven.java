package dev.weft.csp;

/** Turns the linkage error that unwoven pausable code causes into a message saying how to weave. */
final class Unwoven {
    private Unwoven() {
    }

    static Throwable explain(LinkageError e) {
        String m = String.valueOf(e.getMessage());
        if (!m.contains(Fiber.class.getName())) {
            return e;
        }
        IllegalStateException x = new IllegalStateException("pausable code ran unwoven (" + m + "). Weave it with"
                + " the Maven goal dev.weft:csp-maven-plugin:weave, run with -javaagent:csp-weaver.jar, or weave"
                + " the classes with java -jar csp-weaver.jar IN... -d OUT", e);
        return x;
    }
}
