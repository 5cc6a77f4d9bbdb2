package dev.weft.weaver.agent;

import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The java agent: {@code java -javaagent:csp-weaver.jar ...} weaves {@code @Pausable} code as classes load.
 *
 * <p>How it is built, and why. The engine works on whole class files, so Byte Buddy's {@code AgentBuilder}
 * does not transform anything itself: it is used in frozen mode ({@code disableClassFormatChanges}: no
 * member, initializer or helper class of its own), which keeps it compatible with other agents such as
 * JaCoCo, and supplies the circularity lock and error listener. {@link WeavingTypeStrategy} takes the class
 * file exactly as the JVM handed it to the transformer (the first source of Byte Buddy's class file locator),
 * runs the engine, and {@link ReplayWovenClass} replays the woven bytes into Byte Buddy's class writer in
 * place of its copy. Around it, {@link WovenOnly} skips the classes that never need weaving
 * ({@link AgentFilter}: JDK, Byte Buddy, the weaver; and classes already woven) and answers null for every
 * class the engine left unchanged, so those reach the JVM untouched. The transformer is registered as
 * retransformation-capable, which makes the JVM run it after the transformers of other agents that are not
 * (JaCoCo's), in either {@code -javaagent} order: they see the class file as it is on disk. A class woven as
 * it loaded is woven again when retransformed (to the same methods); weaving adds methods, which the JVM
 * forbids for loaded classes, so with {@link #agentmain} only classes loaded after the attach are woven.
 *
 * <p>Start-up stays cheap ({@link LazyWeaving}): classes whose bytes show that they cannot need weaving
 * ({@link ClassFileScan}) are answered at once, and the Byte Buddy transformer ({@link WeavingTransformer})
 * and the engine are built when the first class that may need weaving loads.
 *
 * <p>One engine per class loader ({@link WeaverCache}) resolves callees through that loader's resources.
 * Weave errors are printed to standard error, prefixed {@code weft agent:}, and the class is loaded
 * unwoven; the JVM goes on.
 */
public final class WeftAgent {
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    /** The system property the agent sets, read by csp-core's run-time error for unwoven code. */
    static final String AGENT_PROPERTY = "dev.weft.agent";

    private WeftAgent() {
    }

    /**
     * Entry point for {@code -javaagent:csp-weaver.jar[=preemptive]}: with {@code preemptive}, loop back-edges
     * of pausable code get preemption checks (see {@code Weaver(ClassFinder, boolean)}); other arguments are
     * ignored.
     */
    public static void premain(String args, Instrumentation inst) {
        install(args, inst);
    }

    /** Entry point when attached to a running JVM: weaves the classes loaded from then on. */
    public static void agentmain(String args, Instrumentation inst) {
        install(args, inst);
    }

    private static void install(String args, Instrumentation inst) {
        // Installing twice (-javaagent given twice, or attached again) would weave nothing twice, but waste work.
        if (INSTALLED.compareAndSet(false, true)) {
            // csp-core reads it: unwoven code then means the agent refused the class, not that it is missing.
            System.setProperty(AGENT_PROPERTY, "installed");
            quietByteBuddy();
            // Retransformation-capable: the JVM runs such transformers after every other one, whatever the
            // -javaagent order, so coverage agents (JaCoCo) see the class file as on disk, as their report does.
            // Built lazily: start-up pays for the engine only once a class that may need weaving loads.
            boolean preemptive = isPreemptive(args);
            inst.addTransformer(new LazyWeaving(() -> WeavingTransformer.create(new WeaverCache(preemptive), System.err)),
                    inst.isRetransformClassesSupported());
        }
    }

    /** Whether the agent's arguments ({@code a,b,c}) ask for preemptive weaving. */
    static boolean isPreemptive(String args) {
        if (args != null) {
            for (String a : args.split(",")) {
                if (a.trim().equals("preemptive")) {
                    return true;
                }
            }
        }
        return false;
    }

    // Byte Buddy probes sun.misc.Unsafe as it initialises (for class injection), which JDK 24+ reports on
    // standard error of every program run with the agent. This agent injects no class, so it needs none of
    // it. In csp-weaver.jar the property name is relocated with Byte Buddy, so only the shaded copy sees it.
    private static void quietByteBuddy() {
        if (System.getProperty("net.bytebuddy.safe") == null) {
            System.setProperty("net.bytebuddy.safe", "true");
        }
    }

}
