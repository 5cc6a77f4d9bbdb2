package dev.weft.bench;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
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
 * Ping-pong of one preallocated value between two fibers over two synchronous channels, on one worker.
 * The score is ns per communication; with {@code -prof gc}, {@code gc.alloc.rate.norm} divided by the
 * operations shows what a communication allocates (the fast path allocates nothing).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RendezvousBench {
    private static final int ROUND_TRIPS = 100_000;
    private static final Object BALL = new Object();
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
    @OperationsPerInvocation(2 * ROUND_TRIPS)
    public void pingPong() {
        One2OneChannel<Object> ping = Channel.one2one();
        One2OneChannel<Object> pong = Channel.one2one();
        Weft.run(scheduler, () -> {
            Weft.spawn(() -> {
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    pong.out().write(ping.in().read());
                }
            });
            for (int i = 0; i < ROUND_TRIPS; i++) {
                ping.out().write(BALL);
                pong.in().read();
            }
        });
    }
}
