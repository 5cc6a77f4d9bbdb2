package dev.weft.bench;

import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.Jcsp;
import dev.weft.samples.CommsTime;
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
 * CommsTime (prefix, delta, successor, consumer) on every peer; the score is nanoseconds per communication.
 * Weft, Kilim and virtual threads get one carrier thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class CommsTimeBench {
    static final int CYCLES = 20_000;

    @Benchmark
    @OperationsPerInvocation(4 * CYCLES)
    public double weft(Peers p) {
        return CommsTime.run(p.weft, CYCLES);
    }

    @Benchmark
    @OperationsPerInvocation(4 * CYCLES)
    public void jcsp() {
        Jcsp.commsTime(CYCLES);
    }

    @Benchmark
    @OperationsPerInvocation(4 * CYCLES)
    public void kilim(Peers p) {
        KilimWorkloads.commsTime(p.kilim, CYCLES);
    }

    @Benchmark
    @OperationsPerInvocation(4 * CYCLES)
    public void threads(Peers p) {
        p.threads.commsTime(CYCLES);
    }

    @Benchmark
    @OperationsPerInvocation(4 * CYCLES)
    public void virtualThreads(Peers p) {
        p.virtualThreads.commsTime(CYCLES);
    }
}
