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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Synchronous net ping-pong over loopback, in ns per round trip: a value to the other side and back, the
 * sender waiting for each answer. Every peer runs in one JMH run, so their ratios come from one run:
 *
 * <ul>
 *   <li>{@code weft}: Weft net channels, a plain client thread and a plain echo thread ({@link WeftNetPingPong});
 *   <li>{@code weftFibers}: the same between two fibers on one single-threaded scheduler;
 *   <li>{@code rawNetty}: raw Netty with the same bytes per value, the echo done by the server's event loop, the
 *       client a plain blocked thread: the practical limit ({@link RawNettyPingPong});
 *   <li>{@code rawNettyThreads}: raw Netty with a plain echo thread too, Weft's structure without its protocol;
 *   <li>{@code jcsp}: JCSP.net2 1.1-rc5, plain threads ({@link JcspNetPingPong}).
 * </ul>
 *
 * The connections are made, and warmed by a first round trip, once per trial. Every round trip wakes blocked
 * threads and event loops, so on a virtual machine the figures also measure how fast an idle virtual CPU wakes:
 * on a 2-vCPU one, raw Netty took 11 µs in some forks and 75 µs in others. {@link NetRatios} times the peers in
 * turns within one JVM, for ratios that such swings hit alike.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NetPingPongBench {
    private static final int ROUND_TRIPS = 1_000;

    private Scheduler scheduler;
    private WeftNetPingPong weft;
    private RawNettyPingPong netty;
    private JcspNetPingPong jcsp;

    /** Connects the peer that the benchmark method being run measures. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        switch (method) {
            case "weft":
                weft = new WeftNetPingPong(null);
                break;
            case "weftFibers":
                scheduler = Scheduler.singleThreaded();
                weft = new WeftNetPingPong(scheduler);
                break;
            case "rawNetty":
            case "rawNettyThreads":
                netty = new RawNettyPingPong(WeftNet.encodedBytes(WeftNetPingPong.VALUE), method.equals("rawNettyThreads"));
                break;
            case "jcsp":
                jcsp = new JcspNetPingPong();
                break;
            default:
                throw new IllegalStateException("no peer for " + method);
        }
        check(weft != null ? weft.roundTrips(1) : netty != null ? netty.roundTrips(1) : jcsp.roundTrips(1), 1);
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
        if (jcsp != null) {
            jcsp.close();
        }
        if (scheduler != null) {
            scheduler.close();
        }
    }

    private static int check(int ok, int expected) {
        if (ok != expected) {
            throw new IllegalStateException(ok + " of " + expected + " round trips came back as sent");
        }
        return ok;
    }

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public int weft() {
        return check(weft.roundTrips(ROUND_TRIPS), ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public int weftFibers() {
        return check(weft.roundTrips(ROUND_TRIPS), ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public int rawNetty() {
        return check(netty.roundTrips(ROUND_TRIPS), ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public int rawNettyThreads() {
        return check(netty.roundTrips(ROUND_TRIPS), ROUND_TRIPS);
    }

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public int jcsp() {
        return check(jcsp.roundTrips(ROUND_TRIPS), ROUND_TRIPS);
    }
}
