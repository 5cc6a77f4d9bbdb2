package dev.weft.bench.sched;

import dev.weft.csp.Scheduler;
import java.util.concurrent.TimeUnit;
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

/** Token ring of 256 elements with 1 or 64 tokens on 1 or 2 workers; the score is nanoseconds per hop. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TokenRingBench {
    private static final int SIZE = 256;
    private static final int HOPS = 256 * 1024;

    @Param({"1", "2"})
    public int workers;

    @Param({"1", "64"})
    public int tokens;

    private Scheduler scheduler;

    @Setup(Level.Trial)
    public void start() {
        scheduler = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers);
    }

    @TearDown(Level.Trial)
    public void stop() {
        scheduler.close();
    }

    @Benchmark
    @OperationsPerInvocation(HOPS)
    public long tokenRing() {
        return TokenRing.run(scheduler, SIZE, tokens, HOPS / tokens);
    }
}
