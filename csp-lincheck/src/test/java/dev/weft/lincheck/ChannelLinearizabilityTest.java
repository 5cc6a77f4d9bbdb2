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
 * gives in some order of the operations. The scenarios come from {@link BalancedScenarios}. More runs:
 * {@code -Dweft.lincheck.scenarios=N -Dweft.lincheck.invocations=N}.
 */
class ChannelLinearizabilityTest {
    private static final int SCENARIOS = Integer.getInteger("weft.lincheck.scenarios", 30);
    private static final int INVOCATIONS = Integer.getInteger("weft.lincheck.invocations", 300);

    static Stream<Class<? extends ChannelOperations>> channels() {
        return Channels.ALL.stream();
    }

    @ParameterizedTest
    @MethodSource("channels")
    @Timeout(120)
    void stress(Class<? extends ChannelOperations> channel) {
        configure(new StressOptions(), channel).check(channel);
    }

    @ParameterizedTest
    @MethodSource("channels")
    @Timeout(120)
    void modelChecking(Class<? extends ChannelOperations> channel) {
        configure(new ModelCheckingOptions(), channel).check(channel);
    }

    /** Up to three threads of up to three operations, after up to two writes that fill the buffer. */
    private static <O extends Options<O, ?>> O configure(O options, Class<? extends ChannelOperations> channel) {
        return options.iterations(SCENARIOS)
                .invocationsPerIteration(INVOCATIONS)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .executionGenerator(BalancedScenarios.class)
                .sequentialSpecification(ChannelModel.of(channel.getAnnotation(Shape.class).capacity()))
                .minimizeFailedScenario(false); // see BalancedScenarios
    }
}
