package dev.weft.bench.net;

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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * One-way streaming over loopback, in values per second, for values of {@code valueBytes} bytes (a
 * {@code byte[]}): each invocation streams {@value #VALUES} values and ends when the receiver has them all.
 *
 * <ul>
 *   <li>{@code weft}: a buffered Weft net channel ({@code net2one(}{@value #CAPACITY}{@code )}), a plain writer
 *       thread and a plain reader thread ({@link WeftNetStream});
 *   <li>{@code weftFibers}: the same between two fibers on one single-threaded scheduler;
 *   <li>{@code rawNetty}: raw Netty frames with the same bytes per value, written by a plain thread and counted
 *       by the receiver's event loop: the practical limit ({@link RawNettyStream}).
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NetStreamBench {
    private static final int VALUES = 50_000;
    private static final int CAPACITY = 1024;

    /** Bytes per value. */
    @Param({"16", "1024"})
    public int valueBytes;

    private byte[] value;
    private int frameBytes;
    private Scheduler scheduler;
    private WeftNetStream weft;
    private RawNettyStream netty;

    /** Connects the peer that the benchmark method being run measures. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        value = new byte[valueBytes];
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        switch (method) {
            case "weft":
                weft = new WeftNetStream(CAPACITY, null);
                break;
            case "weftFibers":
                scheduler = Scheduler.singleThreaded();
                weft = new WeftNetStream(CAPACITY, scheduler);
                break;
            case "rawNetty":
                frameBytes = WeftNet.encodedBytes(value);
                netty = new RawNettyStream();
                break;
            default:
                throw new IllegalStateException("no peer for " + method);
        }
    }

    /** Closes the connections and the scheduler. */
    @TearDown(Level.Trial)
    public void stop() {
        if (weft != null) {
            weft.close();
        }
        if (netty != null) {
            netty.close();
        }
        if (scheduler != null) {
            scheduler.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(VALUES)
    public long weft() {
        return check(weft.send(VALUES, value), (long) VALUES * valueBytes);
    }

    @Benchmark
    @OperationsPerInvocation(VALUES)
    public long weftFibers() {
        return check(weft.send(VALUES, value), (long) VALUES * valueBytes);
    }

    @Benchmark
    @OperationsPerInvocation(VALUES)
    public long rawNetty() {
        return check(netty.send(VALUES, frameBytes), VALUES);
    }

    private static long check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("the receiver got " + got + ", not " + expected);
        }
        return got;
    }
}
