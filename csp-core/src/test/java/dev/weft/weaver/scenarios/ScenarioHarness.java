package dev.weft.weaver.scenarios;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.opentest4j.AssertionFailedError;

/**
 * Runs a scenario three ways and compares each result with the expected one: (a) as a fiber on a
 * single-threaded scheduler, fed by a spawned fiber; (b) in thread mode, called from the test's thread and
 * fed by a plain thread; (c) as a fiber on a two-worker scheduler, many times.
 */
public final class ScenarioHarness {
    /** How often mode (c) runs a scenario. */
    public static final int REPEATS = 50;

    private static final Duration SINGLE_LIMIT = Duration.ofSeconds(4);
    private static final Duration THREAD_LIMIT = Duration.ofSeconds(4);
    private static final Duration MULTI_LIMIT = Duration.ofSeconds(8);

    private ScenarioHarness() {
    }

    /** Checks that {@code scenario} returns {@code expected} in all three modes. */
    public static <T> void check(int[] inputs, T expected, Scenario<T> scenario) {
        check(inputs, expected, REPEATS, scenario);
    }

    /** As {@link #check(int[], Object, Scenario)} with {@code repeats} runs in mode (c). */
    public static <T> void check(int[] inputs, T expected, int repeats, Scenario<T> scenario) {
        assertAll(everyMode(repeats, (mode, run) -> {
            Object actual = run.apply(inputs, scenario);
            assertEquals(expected, actual, mode.name + (mode == Mode.MULTI ? ", run " + run.index : ""));
        }));
    }

    /**
     * Checks that {@code scenario} throws exactly {@code type} with {@code message}, and that the stack trace
     * names {@code method}, in all three modes.
     */
    public static void checkThrows(int[] inputs, Class<? extends Throwable> type, String message, String method,
            Scenario<?> scenario) {
        assertAll(everyMode(REPEATS, (mode, run) -> {
            Throwable t = null;
            try {
                run.apply(inputs, scenario);
            } catch (AssertionError e) {
                throw e;
            } catch (Throwable e) {
                t = e;
            }
            assertNotNull(t, mode.name + ": nothing was thrown");
            assertSame(type, t.getClass(), mode.name + ": wrong exception type: " + t);
            assertEquals(message, t.getMessage(), mode.name + ": message");
            Throwable thrown = t;
            assertTrue(Arrays.stream(t.getStackTrace()).anyMatch(e -> e.getMethodName().equals(method)),
                    () -> mode.name + ": stack trace does not name " + method + ": "
                            + Arrays.toString(thrown.getStackTrace()));
        }));
    }

    /** Runs {@code scenario} once in thread mode (the reference for differential tests). */
    public static <T> T inThread(int[] inputs, Scenario<T> scenario) {
        return timed(Mode.THREAD, () -> onThread(inputs, scenario));
    }

    /** Runs {@code scenario} once as a fiber of {@code s}, fed by a spawned fiber. */
    public static <T> T inFiber(Scheduler s, int[] inputs, Scenario<T> scenario) {
        Feeder feeder = new Feeder(inputs);
        Main<T> main = new Main<>(feeder, scenario, true);
        Weft.run(s, main);
        assertEquals(inputs.length, feeder.served(), "inputs taken by the scenario");
        return main.result;
    }

    /** Runs {@code scenario} once as a fiber of {@code s}, fed by a plain thread (fibers talking to threads). */
    public static <T> T inFiberFedByThread(Scheduler s, int[] inputs, Scenario<T> scenario) {
        return timed(Mode.MULTI, () -> {
            Feeder feeder = new Feeder(inputs);
            Thread t = new Feeder.OnThread(feeder);
            Main<T> main = new Main<>(feeder, scenario, false);
            t.start();
            try {
                Weft.run(s, main);
            } finally {
                t.join(THREAD_LIMIT.toMillis());
            }
            assertFalse(t.isAlive(), "the feeder thread did not end");
            assertEquals(inputs.length, feeder.served(), "inputs taken by the scenario");
            return main.result;
        });
    }

    // ------------------------------------------------------------------------------------------ modes

    private enum Mode {
        SINGLE("(a) fiber on Scheduler.singleThreaded()", SINGLE_LIMIT),
        THREAD("(b) thread mode", THREAD_LIMIT),
        MULTI("(c) fiber on Scheduler.create(2)", MULTI_LIMIT);

        final String name;
        final Duration limit;

        Mode(String name, Duration limit) {
            this.name = name;
            this.limit = limit;
        }
    }

    /** One run of a scenario in some mode. */
    private abstract static class Run {
        int index;

        abstract Object apply(int[] inputs, Scenario<?> scenario) throws Throwable;
    }

    /** What a check does with one run. */
    private interface Body {
        void accept(Mode mode, Run run) throws Throwable;
    }

    private static Executable[] everyMode(int repeats, Body body) {
        return Arrays.stream(Mode.values())
                .map(mode -> (Executable) () -> timed(mode, () -> {
                    inMode(mode, repeats, body);
                    return null;
                }))
                .toArray(Executable[]::new);
    }

    private static void inMode(Mode mode, int repeats, Body body) throws Throwable {
        if (mode == Mode.THREAD) {
            body.accept(mode, new Run() {
                @Override
                Object apply(int[] inputs, Scenario<?> scenario) throws Throwable {
                    return onThread(inputs, scenario);
                }
            });
            return;
        }
        try (Scheduler s = mode == Mode.SINGLE ? Scheduler.singleThreaded() : Scheduler.create(2)) {
            Run run = new Run() {
                @Override
                Object apply(int[] inputs, Scenario<?> scenario) {
                    return inFiber(s, inputs, scenario);
                }
            };
            int n = mode == Mode.SINGLE ? 1 : repeats;
            for (int i = 0; i < n; i++) {
                run.index = i;
                body.accept(mode, run);
            }
        }
    }

    private static <T> T timed(Mode mode, ThrowingSupplier<T> body) {
        try {
            return assertTimeoutPreemptively(mode.limit, body, mode.name);
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionFailedError(mode.name + " failed: " + t, t);
        }
    }

    /** Thread mode: the scenario is called directly (original signature); a plain thread feeds it. */
    private static <T> T onThread(int[] inputs, Scenario<T> scenario) throws InterruptedException {
        Feeder feeder = new Feeder(inputs);
        Thread t = new Feeder.OnThread(feeder);
        t.start();
        T result;
        try {
            result = scenario.run(feeder.source());
        } finally {
            feeder.stop();
            t.join(THREAD_LIMIT.toMillis());
        }
        assertFalse(t.isAlive(), "the feeder thread did not end");
        assertEquals(inputs.length, feeder.served(), "inputs taken by the scenario");
        return result;
    }

    /** The main fiber of a run: spawns the feeder, runs the scenario, keeps its result. */
    private static final class Main<T> implements CSProcess {
        private final Feeder feeder;
        private final Scenario<T> scenario;
        private final boolean spawnFeeder;
        T result;

        Main(Feeder feeder, Scenario<T> scenario, boolean spawnFeeder) {
            this.feeder = feeder;
            this.scenario = scenario;
            this.spawnFeeder = spawnFeeder;
        }

        @Override
        @Pausable
        public void run() {
            Source source = feeder.source();
            if (spawnFeeder) {
                Weft.spawn(feeder);
            }
            try {
                T r = scenario.run(source);
                result = r;
            } finally {
                feeder.stop();
            }
        }
    }
}
