package dev.weft.csp.runtime;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * How the runtime's lock-free structures are checked: scenarios of three threads of four operations, with two
 * before and two after, in both of Lincheck's modes, against a sequential model. Lincheck draws the scenarios
 * from a fixed seed, so a run is repeatable; for a longer search raise the counts:
 * {@code -Dweft.lincheck.runtimeScenarios=N -Dweft.lincheck.runtimeInvocations=N}.
 */
final class Checks {
    private static final int SCENARIOS = Integer.getInteger("weft.lincheck.runtimeScenarios", 10);
    private static final int INVOCATIONS = Integer.getInteger("weft.lincheck.runtimeInvocations", 200);

    /** As in ChannelLinearizabilityTest: Lincheck's first run instruments every class it meets, slowly when loaded. */
    private static final long HANG_MILLIS = 100_000;

    private Checks() {
    }

    /** Real threads, real timing. */
    static void stress(Class<?> test, Class<?> model) {
        configure(new StressOptions(), model).check(test);
    }

    /** One thread at a time, switched at shared-memory accesses, over many interleavings. */
    static void modelChecking(Class<?> test, Class<?> model) {
        configure(new ModelCheckingOptions(), model).check(test);
    }

    private static <O extends Options<O, ?>> O configure(O options, Class<?> model) {
        return options.iterations(SCENARIOS).invocationsPerIteration(INVOCATIONS)
                .threads(3).actorsPerThread(4).actorsBefore(2).actorsAfter(2)
                .sequentialSpecification(model)
                .invocationTimeout$lincheck(HANG_MILLIS); // internal to Lincheck, the only way to set it
    }
}
