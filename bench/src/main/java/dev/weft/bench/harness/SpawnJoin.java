package dev.weft.bench.harness;

import dev.weft.bench.WeftWorkloads;
import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.Jcsp;
import dev.weft.bench.peers.ThreadStarter;
import dev.weft.bench.peers.Threads;
import dev.weft.csp.Scheduler;
import java.util.Arrays;

/**
 * Spawn+join: one process starts {@code count} processes that do nothing and then joins each of them; the
 * figure is nanoseconds per process, the median of 5 timed rounds after 2 warm-up rounds. One peer per JVM:
 *
 * <pre>java -Xmx3g -cp bench/target/benchmarks.jar dev.weft.bench.harness.SpawnJoin PEER COUNT</pre>
 *
 * <p>Weft, Kilim and virtual threads run on one carrier thread (virtual threads: run with
 * {@code -Djdk.virtualThreadScheduler.parallelism=1}).
 */
public final class SpawnJoin {
    private static final int WARM_UPS = 2;
    private static final int ROUNDS = 5;

    private SpawnJoin() {
    }

    /** Measures one peer: {@code args[0]} the peer, {@code args[1]} processes per round. */
    public static void main(String[] args) {
        String peer = args[0];
        int count = Integer.parseInt(args[1]);
        Scheduler weft = peer.equals("weft") ? Scheduler.singleThreaded() : null;
        kilim.Scheduler kilim = peer.equals("kilim") ? KilimWorkloads.scheduler(1) : null;
        Threads threads = peer.equals("threads") ? new Threads(ThreadStarter.PLATFORM)
                : peer.equals("virtualThreads") ? new Threads(ThreadStarter.VIRTUAL) : null;
        double[] ns = new double[ROUNDS];
        for (int r = -WARM_UPS; r < ROUNDS; r++) {
            long start = System.nanoTime();
            int ran;
            switch (peer) {
                case "weft":
                    ran = WeftWorkloads.spawnJoin(weft, count);
                    break;
                case "kilim":
                    ran = KilimWorkloads.spawnJoin(kilim, count);
                    break;
                case "jcsp":
                    ran = Jcsp.spawnJoin(count);
                    break;
                case "threads":
                case "virtualThreads":
                    ran = threads.spawnJoin(count);
                    break;
                default:
                    throw new IllegalArgumentException("unknown peer " + peer);
            }
            long time = System.nanoTime() - start;
            if (ran != count) {
                throw new IllegalStateException(peer + ": " + ran + " of " + count + " processes ran");
            }
            if (r >= 0) {
                ns[r] = (double) time / count;
            }
        }
        if (weft != null) {
            weft.close();
        }
        if (kilim != null) {
            kilim.shutdown();
        }
        Arrays.sort(ns);
        Measure.result("spawnJoin." + peer, String.format("%.0f", ns[ROUNDS / 2]));
        Measure.result("spawnJoin." + peer + ".count", count);
    }
}
