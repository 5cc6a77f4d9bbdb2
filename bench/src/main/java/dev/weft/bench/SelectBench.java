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
 * Select over 4 channels: 4 writers, each on its own channel, 10,000 values each; one reader selects fairly
 * among the 4 and reads the chosen one; the score is nanoseconds per value.
 *
 * <p>Only peers with a select take part: Weft and JCSP ({@code Alternative.fairSelect}) and Kilim
 * ({@code Mailbox.select}). {@code java.util.concurrent} has no select over {@code SynchronousQueue}s, so the
 * thread peers have no entry. Weft and Kilim get one carrier thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class SelectBench {
    static final int CHANNELS = 4;
    static final int PER_WRITER = 10_000;

    @Benchmark
    @OperationsPerInvocation(CHANNELS * PER_WRITER)
    public long weft(Peers p) {
        return WeftWorkloads.select(p.weft, CHANNELS, PER_WRITER);
    }

    @Benchmark
    @OperationsPerInvocation(CHANNELS * PER_WRITER)
    public long jcsp() {
        return Jcsp.select(CHANNELS, PER_WRITER);
    }

    @Benchmark
    @OperationsPerInvocation(CHANNELS * PER_WRITER)
    public long kilim(Peers p) {
        return KilimWorkloads.select(p.kilim, CHANNELS, PER_WRITER);
    }
}
