package dev.weft.bench;

import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.Jcsp;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Fan-in: 8 writers share one any-to-one channel into a single reader, 10,000 values each; the score is
 * nanoseconds per value. Weft, Kilim and virtual threads get one carrier thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class FanInBench {
    static final int WRITERS = 8;
    static final int PER_WRITER = 10_000;

    @Benchmark
    @OperationsPerInvocation(WRITERS * PER_WRITER)
    public long weft(Peers p) {
        return WeftWorkloads.fanIn(p.weft, WRITERS, PER_WRITER);
    }

    @Benchmark
    @OperationsPerInvocation(WRITERS * PER_WRITER)
    public long jcsp() {
        return Jcsp.fanIn(WRITERS, PER_WRITER);
    }

    @Benchmark
    @OperationsPerInvocation(WRITERS * PER_WRITER)
    public long kilim(Peers p) {
        return KilimWorkloads.fanIn(p.kilim, WRITERS, PER_WRITER);
    }

    @Benchmark
    @OperationsPerInvocation(WRITERS * PER_WRITER)
    public long threads(Peers p) {
        return p.threads.fanIn(WRITERS, PER_WRITER);
    }

    @Benchmark
    @OperationsPerInvocation(WRITERS * PER_WRITER)
    public long virtualThreads(Peers p) {
        return p.virtualThreads.fanIn(WRITERS, PER_WRITER);
    }
}
