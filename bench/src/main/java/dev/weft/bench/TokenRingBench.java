package dev.weft.bench;

import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.Jcsp;
import dev.weft.samples.TokenRing;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Token ring of 256 elements, 1 or 64 tokens, 1024 round trips in all (262,144 hops per run); the score is
 * nanoseconds per hop. Weft, Kilim and virtual threads get one carrier thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class TokenRingBench {
    static final int ELEMENTS = 256;
    static final int ROUND_TRIPS = 1024;
    static final int HOPS = ELEMENTS * ROUND_TRIPS;

    /** Tokens travelling round the ring at once. */
    @Param({"1", "64"})
    public int tokens;

    @Benchmark
    @OperationsPerInvocation(HOPS)
    public int weft(Peers p) {
        return TokenRing.run(p.weft, ELEMENTS, tokens, ROUND_TRIPS).roundTrips;
    }

    @Benchmark
    @OperationsPerInvocation(HOPS)
    public int jcsp() {
        return Jcsp.tokenRing(ELEMENTS, tokens, ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(HOPS)
    public int kilim(Peers p) {
        return KilimWorkloads.tokenRing(p.kilim, ELEMENTS, tokens, ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(HOPS)
    public int threads(Peers p) {
        return p.threads.tokenRing(ELEMENTS, tokens, ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(HOPS)
    public int virtualThreads(Peers p) {
        return p.virtualThreads.tokenRing(ELEMENTS, tokens, ROUND_TRIPS);
    }
}
