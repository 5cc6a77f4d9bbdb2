package dev.weft.bench;

import dev.weft.csp.Fiber;
import dev.weft.csp.abi.HandWoven;
import dev.weft.csp.Pausable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of weaving when nothing pauses: a pausable method making ten pausable calls that return at once,
 * in its woven form, against the same code unwoven. The woven form is called through a constant method
 * handle (what javac cannot name, the JIT inlines like a direct call).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class NonPausingCallBench {
    private static final MethodHandle WOVEN_OUTER;

    static {
        try {
            WOVEN_OUTER = MethodHandles.lookup().findStatic(NonPausingCallBench.class, "pausableOuter",
                    MethodType.methodType(int.class, int.class, Fiber.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Fiber fiber = HandWoven.forThread();
    private int x = 17;

    @Benchmark
    public int unwoven() {
        return plainOuter(x);
    }

    @Benchmark
    public int woven() throws Throwable {
        return (int) WOVEN_OUTER.invokeExact(x, fiber);
    }

    @Pausable
    static int pausableOuter(int x) {
        int s = 0;
        for (int i = 0; i < 10; i++) {
            s += pausableInner(x + i, s);
        }
        return s;
    }

    @Pausable
    static int pausableInner(int v, int s) {
        return v * 31 + (s >>> 3);
    }

    static int plainOuter(int x) {
        int s = 0;
        for (int i = 0; i < 10; i++) {
            s += plainInner(x + i, s);
        }
        return s;
    }

    static int plainInner(int v, int s) {
        return v * 31 + (s >>> 3);
    }
}
