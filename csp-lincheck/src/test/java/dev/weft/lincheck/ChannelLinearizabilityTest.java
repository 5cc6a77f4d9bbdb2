package dev.weft.lincheck;

import java.util.stream.Stream;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lincheck over every local channel ({@link Channels}), in both of its modes: stress (real threads, real timing)
 * and model checking (Lincheck runs one thread at a time, switches between them at shared-memory accesses and
 * parks, and explores many interleavings). The results of every run must be those that {@link ChannelModel}
 * gives in some order of the operations. The scenarios come from {@link BalancedScenarios}: two to four threads
 * of up to three operations.
 *
 * <p>The counts keep the whole class at about two minutes on two cores (a model-checking run of Weft's
 * operations costs tens of milliseconds); for a longer search, raise them:
 * {@code -Dweft.lincheck.stressScenarios=N -Dweft.lincheck.stressInvocations=N -Dweft.lincheck.modelScenarios=N
 * -Dweft.lincheck.modelInvocations=N}.
 * Lincheck draws its scenarios from a fixed seed, so a run is repeatable.
 */
class ChannelLinearizabilityTest {
    private static final int STRESS_SCENARIOS = Integer.getInteger("weft.lincheck.stressScenarios", 5);
    private static final int STRESS_INVOCATIONS = Integer.getInteger("weft.lincheck.stressInvocations", 300);
    private static final int MODEL_SCENARIOS = Integer.getInteger("weft.lincheck.modelScenarios", 3);
    private static final int MODEL_INVOCATIONS = Integer.getInteger("weft.lincheck.modelInvocations", 30);
    /**
     * Lincheck's limit on one run of a scenario, after which it reports a hang. Its default (30 s, of wall time)
     * is too short on a loaded machine for the first model-checking run, in which Lincheck instruments every
     * class it meets; a real deadlock is found by model checking without the limit, by stress with it.
     */
    private static final long HANG_MILLIS = 100_000;

    static Stream<Class<? extends ChannelOperations>> channels() {
        return Channels.ALL.stream();
    }

    @ParameterizedTest
    @MethodSource("channels")
    @Timeout(300)
    void stress(Class<? extends ChannelOperations> channel) {
        configure(new StressOptions(), channel).iterations(STRESS_SCENARIOS)
                .invocationsPerIteration(STRESS_INVOCATIONS)
                .check(channel);
    }

    @ParameterizedTest
    @MethodSource("channels")
    @Timeout(300)
    void modelChecking(Class<? extends ChannelOperations> channel) {
        configure(new ModelCheckingOptions(), channel).iterations(MODEL_SCENARIOS)
                .invocationsPerIteration(MODEL_INVOCATIONS)
                .check(channel);
    }

    private static <O extends Options<O, ?>> O configure(O options, Class<? extends ChannelOperations> channel) {
        return options.threads(4)
                .actorsPerThread(3)
                .actorsBefore(2) // the writes that fill the buffer first, up to its capacity
                .executionGenerator(BalancedScenarios.class)
                .sequentialSpecification(ChannelModel.of(channel.getAnnotation(Shape.class).capacity()))
                .minimizeFailedScenario(false) // see BalancedScenarios
                .invocationTimeout$lincheck(HANG_MILLIS); // internal to Lincheck, the only way to set it
    }
}
