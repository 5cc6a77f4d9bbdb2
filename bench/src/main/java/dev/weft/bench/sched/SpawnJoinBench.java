package dev.weft.bench.sched;

import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/** Spawn and join: a fiber spawns N trivial fibers, then joins each; the score is nanoseconds per process. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SpawnJoinBench {
    private static final int N = 10_000;

    @Param({"1", "2"})
    public int workers;

    private Scheduler scheduler;
    private final LongAdder ran = new LongAdder();

    @Setup(Level.Trial)
    public void start() {
        scheduler = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers);
    }

    @TearDown(Level.Trial)
    public void stop() {
        scheduler.close();
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long spawnJoin() {
        Weft.run(scheduler, () -> {
            Fiber[] fibers = new Fiber[N];
            for (int i = 0; i < N; i++) {
                fibers[i] = Weft.spawn(ran::increment);
            }
            for (Fiber f : fibers) {
                f.join();
            }
        });
        return ran.sum();
    }
}
