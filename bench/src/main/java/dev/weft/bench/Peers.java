package dev.weft.bench;

import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.ThreadStarter;
import dev.weft.bench.peers.Threads;
import dev.weft.csp.Scheduler;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The runtime each peer needs, set up once per trial for the benchmark method being run: the method's name
 * says the peer ({@code weft}, {@code jcsp}, {@code kilim}, {@code threads}, {@code virtualThreads}), a
 * {@code workers} parameter (default 1) the number of carrier threads where the peer has a scheduler.
 *
 * <p>Virtual threads get their carrier count from {@code jdk.virtualThreadScheduler.parallelism}, which the JDK
 * reads when the first virtual thread is made; every trial runs in a fresh fork, so setting it here, before
 * any virtual thread exists, gives them {@code workers} carriers too.
 */
@State(Scope.Benchmark)
public class Peers {
    /** Carrier threads for the peers that have a scheduler. */
    public int workers;
    /** Weft's scheduler, for {@code weft} methods. */
    public Scheduler weft;
    /** Kilim's scheduler, for {@code kilim} methods. */
    public kilim.Scheduler kilim;
    /** Platform-thread workloads, for {@code threads} methods. */
    public Threads threads;
    /** Virtual-thread workloads, for {@code virtualThreads} methods. */
    public Threads virtualThreads;

    /** Starts the runtime the current benchmark method needs. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        workers = params.getParamsKeys().contains("workers") ? Integer.parseInt(params.getParam("workers")) : 1;
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        switch (method) {
            case "weft":
                weft = workers == 1 ? Scheduler.singleThreaded() : Scheduler.create(workers);
                break;
            case "kilim":
                kilim = KilimWorkloads.scheduler(workers);
                break;
            case "threads":
                threads = new Threads(ThreadStarter.PLATFORM);
                break;
            case "virtualThreads":
                System.setProperty("jdk.virtualThreadScheduler.parallelism", Integer.toString(workers));
                if (!ThreadStarter.VirtualThreads.available()) {
                    throw new UnsupportedOperationException("virtual threads need JDK 21+");
                }
                virtualThreads = new Threads(ThreadStarter.VIRTUAL);
                break;
            default:
                break;
        }
    }

    /** Stops the schedulers started for the trial. */
    @TearDown(Level.Trial)
    public void stop() {
        if (weft != null) {
            weft.close();
        }
        if (kilim != null) {
            kilim.shutdown();
        }
    }
}
