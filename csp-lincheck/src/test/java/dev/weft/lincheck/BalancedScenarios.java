package dev.weft.lincheck;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.CTestStructure;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionGenerator;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.CTestConfiguration;
import org.jetbrains.lincheck.datastructures.RandomProvider;

/**
 * Random scenarios in which a correct channel never leaves a thread waiting for good. Lincheck counts a thread
 * that never returns as a failure (a deadlock), but a read with no writer left rightly waits forever; Lincheck
 * lets only suspending (Kotlin) operations wait like that, and thread mode blocks. So each scenario is built so
 * that every read and write finds its partner, whatever the interleaving:
 *
 * <ul>
 *   <li>each thread is a writer (writes, alternatives and {@code Select}s on the output, {@code selectNow()} on
 *       the output) or a reader (reads, alternatives and {@code Select}s on the input, {@code pending()},
 *       {@code selectNow()} on the input); an unshared end has one
 *       such thread. {@code close()} runs in writer threads (in any thread when the output is shared),
 *       {@code poison()} in any; a scenario closes or poisons the channel, not both;
 *   <li>with W values written (the sequential first part writes up to the capacity, as the channel's starting
 *       fill) and R reads, W ≤ R + capacity, so a waiting writer always has a reader to come: a writer waits only
 *       when the buffer is full and no reader waits, so if it waited for good, every read would be done and W
 *       would exceed R + capacity;
 *   <li>and R ≤ W, unless a writer thread closes the channel (the close ends every read still waiting): a reader
 *       waits only when nothing is buffered or held by a waiting writer, so if it waited for good, every write
 *       would be done, each taken by a read, and R would exceed W.
 * </ul>
 * Poison ends every wait, so it can go anywhere. The last part, run alone after the threads, reads what is left
 * ({@link ChannelOperations#leftover()}).
 *
 * <p>Lincheck's own scenario minimization is off for these tests (it would drop a read and report the wait that
 * follows); the scenarios are small to begin with.
 */
public final class BalancedScenarios extends ExecutionGenerator {
    private static final int MAX_TRIES = 10_000;

    private final Random random;
    private final Shape shape;
    private final Class<?> operations;

    public BalancedScenarios(CTestConfiguration configuration, CTestStructure structure, RandomProvider random) {
        super(configuration, structure);
        this.random = random.createRandom();
        this.operations = configuration.getTestClass();
        this.shape = operations.getAnnotation(Shape.class);
        if (shape == null) {
            throw new IllegalArgumentException(operations.getName() + " has no @Shape: say which channel it checks");
        }
    }

    @Override
    public ExecutionScenario nextExecution() {
        for (int i = 0; i < MAX_TRIES; i++) {
            ExecutionScenario s = tryScenario();
            if (s != null) {
                return s;
            }
        }
        throw new IllegalStateException("no balanced scenario in " + MAX_TRIES + " tries for " + operations.getName()
                + ": allow more threads or operations per thread");
    }

    /** A random scenario, or null if it is not balanced (see the class comment). */
    private ExecutionScenario tryScenario() {
        int threads = 2 + random.nextInt(Math.max(1, testConfiguration.getThreads() - 1));
        int writers = writerThreads(threads);
        int readers = shape.kind().sharedInput ? threads - writers : 1;
        Values values = new Values();
        List<Actor> init = new ArrayList<>();
        int fill = random.nextInt(Math.min(shape.capacity(), testConfiguration.getActorsBefore()) + 1);
        for (int i = 0; i < fill; i++) {
            init.add(actor("write", values.next()));
        }
        Counts counts = new Counts(fill);
        List<List<Actor>> parallel = new ArrayList<>();
        for (int t = 0; t < writers + readers; t++) {
            parallel.add(thread(t < writers, counts, values));
        }
        boolean balanced = counts.written <= counts.read + shape.capacity()
                && (counts.read <= counts.written || counts.writerCloses) && counts.read > 0;
        if (!balanced) {
            return null;
        }
        return new ExecutionScenario(init, parallel, List.of(actor("leftover")), testStructure.validationFunction);
    }

    private int writerThreads(int threads) {
        if (!shape.kind().sharedOutput) {
            return 1;
        }
        if (!shape.kind().sharedInput) {
            return threads - 1;
        }
        return 1 + random.nextInt(threads - 1);
    }

    /** One thread's operations: a writer's or a reader's, with at most one close or poison in all. */
    private List<Actor> thread(boolean writer, Counts counts, Values values) {
        int n = 1 + random.nextInt(testConfiguration.getActorsPerThread());
        List<Actor> ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int r = random.nextInt(10);
            if (r == 9 && !counts.ended) {
                counts.ended = true;
                ops.add(actor("poison"));
            } else if (r == 8 && !counts.ended && (writer || shape.kind().sharedOutput)) {
                counts.ended = true;
                counts.writerCloses = writer || i == 0; // a reader's first operation is always reached
                ops.add(actor("close"));
            } else if (r == 7) {
                ops.add(actor(writer ? "selectNowOut" : "selectNowIn"));
            } else if (r == 6 && !writer) {
                ops.add(actor("pending"));
            } else if (writer) {
                counts.written++;
                ops.add(actor(r < 2 ? "selectWrite" : r == 2 ? "selectCaseWrite" : "write", values.next()));
            } else {
                counts.read++;
                ops.add(actor(r < 2 ? "selectRead" : r == 2 ? "selectCaseRead" : "read"));
            }
        }
        return ops;
    }

    private Actor actor(String name) {
        return new Actor(method(name), List.of());
    }

    private Actor actor(String name, int value) {
        return new Actor(method(name, int.class), List.of(value));
    }

    private Method method(String name, Class<?>... parameters) {
        try {
            return operations.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(operations.getName() + " has no operation " + name, e);
        }
    }

    /** The values written in one scenario: 1, 2, 3... each once, so that a report shows which write went where. */
    private static final class Values {
        private int last;

        int next() {
            return ++last;
        }
    }

    /** What one scenario writes, reads, closes and poisons. */
    private static final class Counts {
        int written;
        int read;
        /** A close or a poison is in the scenario: never both (see {@link ChannelOperations#write(int)}). */
        boolean ended;
        boolean writerCloses;

        Counts(int written) {
            this.written = written;
        }
    }
}
