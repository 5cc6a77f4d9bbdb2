package dev.weft.bench;

import dev.weft.csp.Scheduler;
import dev.weft.samples.CommsTime;
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

/** CommsTime on the single-threaded scheduler; the score is nanoseconds per communication. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class CommsTimeBench {
    private static final int CYCLES = 100_000;
    private Scheduler scheduler;

    @Setup(Level.Trial)
    public void start() {
        scheduler = Scheduler.singleThreaded();
    }

    @TearDown(Level.Trial)
    public void stop() {
        scheduler.close();
    }

    @Benchmark
    @OperationsPerInvocation(4 * CYCLES)
    public double commsTimeOneWorker() {
        return CommsTime.run(scheduler, CYCLES);
    }
}
