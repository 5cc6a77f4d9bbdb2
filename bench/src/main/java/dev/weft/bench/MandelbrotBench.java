package dev.weft.bench;

import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.Jcsp;
import dev.weft.samples.MandelbrotFarm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Mandelbrot farm (farmer, {@code workers} worker processes, harvester) rendering a 400x300 image with at
 * most 500 iterations per point; the score is milliseconds per image. Weft, Kilim and virtual threads get as
 * many carrier threads as there are worker processes; JCSP and platform threads get one thread per process.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MandelbrotBench {
    static final int WIDTH = 400;
    static final int HEIGHT = 300;
    static final int MAX_ITER = 500;

    /** Worker processes, and carrier threads where the peer has a scheduler. */
    @Param({"1", "2"})
    public int workers;

    @Benchmark
    public int[][] weft(Peers p) {
        return MandelbrotFarm.render(p.weft, workers, WIDTH, HEIGHT, MAX_ITER);
    }

    @Benchmark
    public int[][] jcsp() {
        return Jcsp.mandelbrot(workers, WIDTH, HEIGHT, MAX_ITER);
    }

    @Benchmark
    public int[][] kilim(Peers p) {
        return KilimWorkloads.mandelbrot(p.kilim, workers, WIDTH, HEIGHT, MAX_ITER);
    }

    @Benchmark
    public int[][] threads(Peers p) {
        return p.threads.mandelbrot(workers, WIDTH, HEIGHT, MAX_ITER);
    }

    @Benchmark
    public int[][] virtualThreads(Peers p) {
        return p.virtualThreads.mandelbrot(workers, WIDTH, HEIGHT, MAX_ITER);
    }
}
