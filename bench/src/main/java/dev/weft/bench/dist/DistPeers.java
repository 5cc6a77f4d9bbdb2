package dev.weft.bench.dist;

import dev.weft.net.launch.Launcher;
import dev.weft.samples.dist.NBody;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * N-body on 1, 2 and 4 nodes of this machine, on Weft (csp-net, the {@link Launcher}) and on JCSP.net2
 * 1.1-rc5 ({@link JcspNBody}), in one run; every result is checked against Weft's 1-node one. Prints a
 * Markdown table of the best wall-clock time of {@code repeats} runs, worker JVM start-up included. Run:
 * {@code java -cp bench/target/benchmarks.jar dev.weft.bench.dist.DistPeers [repeats bodies steps]}.
 */
public final class DistPeers {
    private static final int[] NODES = {1, 2, 4};

    private DistPeers() {
    }

    /** Times both. */
    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 8_000;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        String[] size = {String.valueOf(n), String.valueOf(steps)};
        Launcher.builder().build().run(NBody.class, "500", "4"); // warms this JVM up
        JcspNBody.run(1, 500, 4);
        double[] reference = null;
        System.out.println("| n-body " + n + " x " + steps + " | 1 node | 2 nodes | 4 nodes |");
        System.out.println("|---|---|---|---|");
        StringBuilder weft = new StringBuilder("| Weft (csp-net) |");
        StringBuilder jcsp = new StringBuilder("| JCSP.net2 1.1-rc5 |");
        for (int nodes : NODES) {
            reference = time(weft, repeats, reference, () -> Launcher.builder().nodes(nodes).build().run(NBody.class, size));
            time(jcsp, repeats, reference, () -> JcspNBody.run(nodes, n, steps));
        }
        System.out.println(weft);
        System.out.println(jcsp);
    }

    /** Appends the best time of {@code repeats} runs; checks each result against {@code reference} (null: none yet). */
    private static double[] time(StringBuilder row, int repeats, double[] reference, Callable<double[]> run)
            throws Exception {
        long best = Long.MAX_VALUE;
        double[] result = reference;
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            double[] got = run.call();
            best = Math.min(best, System.nanoTime() - t0);
            if (result != null && !Arrays.equals(result, got)) {
                throw new IllegalStateException("a run gave other bodies than Weft on 1 node");
            }
            result = got;
        }
        row.append(String.format(" %.2f s |", best / 1e9));
        return result;
    }
}
