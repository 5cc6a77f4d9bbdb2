package dev.weft.bench.sched;

import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a preemption check costs: the same loop in a fiber, plain, with the check that the weaver's
 * preemptive mode puts before each back-edge (a local countdown and, every 8192 passes, a call to
 * {@code Fiber.yieldIfOthersWait()}; written out here, so that the module's ordinary weaving produces the
 * same woven code), and with a hand-placed {@code Fiber.yieldIfDue()}. The score is nanoseconds per
 * iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PreemptionCheckBench {
    private static final int N = 1 << 20;
    private Scheduler scheduler;
    private final int[] data = new int[1024];
    private final long[] result = new long[1];

    @Setup(Level.Trial)
    public void start() {
        scheduler = Scheduler.singleThreaded();
        for (int i = 0; i < data.length; i++) {
            data[i] = i * 31;
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        scheduler.close();
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long plainLoop() {
        Weft.run(scheduler, () -> result[0] = plain(data, N));
        return result[0];
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long checkedLoop() {
        Weft.run(scheduler, () -> result[0] = checked(data, N));
        return result[0];
    }

    @Pausable
    static long plain(int[] a, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += a[i & 1023] ^ i;
        }
        return sum;
    }

    @Pausable
    static long checked(int[] a, int n) {
        long sum = 0;
        int countdown = 8192;
        for (int i = 0; i < n; i++) {
            sum += a[i & 1023] ^ i;
            if (--countdown <= 0) { // what preemptive weaving inserts before the back-edge
                countdown = 8192;
                Fiber.yieldIfOthersWait();
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long fieldBudgetLoop() {
        Weft.run(scheduler, () -> result[0] = fieldBudget(data, N));
        return result[0];
    }

    @Pausable
    static long fieldBudget(int[] a, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += a[i & 1023] ^ i;
            Fiber.yieldIfDue(); // the hand-placed check: a budget field in the fiber
        }
        return sum;
    }
}
