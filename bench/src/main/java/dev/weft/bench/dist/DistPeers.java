package dev.weft.bench.dist;

import dev.weft.net.launch.Launcher;
import dev.weft.net.launch.NetProgram;
import dev.weft.samples.dist.NBody;
import dev.weft.samples.dist.Sor;
import dev.weft.samples.dist.Tsp;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * The distributed samples on 1, 2 and 4 nodes of this machine, on Weft (csp-net, the {@link Launcher}) and on
 * JCSP.net2 1.1-rc5 ({@link JcspNBody}, {@link JcspSor}, {@link JcspTsp}), in one run, at the sizes of docs/distributed.md;
 * every result is checked against Weft's 1-node one. Prints a Markdown table per program of the best
 * wall-clock time of {@code repeats} runs, worker JVM start-up included. Run:
 * {@code java -cp bench/target/benchmarks.jar dev.weft.bench.dist.DistPeers [repeats]}.
 */
public final class DistPeers {
    private static final int[] NODES = {1, 2, 4};

    private DistPeers() {
    }

    /** A JCSP.net2 peer: runs on {@code nodes} nodes at {@code size}. */
    private interface Peer<R> {
        R run(int nodes, int[] size) throws Exception;
    }

    /** Times the three programs. */
    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        table("n-body 8000 bodies x 40 steps", new int[] {8_000, 40}, new int[] {500, 4}, repeats, NBody.class,
                (nodes, s) -> JcspNBody.run(nodes, s[0], s[1]));
        table("SOR 400 x 400", new int[] {400}, new int[] {60}, repeats, Sor.class, (nodes, s) -> JcspSor.run(nodes, s[0]));
        table("TSP 20 cities", new int[] {20}, new int[] {10}, repeats, Tsp.class, (nodes, s) -> JcspTsp.run(nodes, s[0]));
    }

    /** Warms this JVM up at {@code small}, then prints the table of both peers at {@code size}. */
    private static <R> void table(String name, int[] size, int[] small, int repeats,
                                  Class<? extends NetProgram<R>> weft, Peer<R> jcsp) throws Exception {
        Launcher.builder().build().run(weft, text(small));
        jcsp.run(1, small);
        String[] args = text(size);
        System.out.println();
        System.out.println("| " + name + " | 1 node | 2 nodes | 4 nodes |");
        System.out.println("|---|---|---|---|");
        StringBuilder weftRow = new StringBuilder("| Weft (csp-net) |");
        StringBuilder jcspRow = new StringBuilder("| JCSP.net2 1.1-rc5 |");
        R reference = null;
        for (int nodes : NODES) {
            reference = time(weftRow, repeats, reference, () -> Launcher.builder().nodes(nodes).build().run(weft, args));
            time(jcspRow, repeats, reference, () -> jcsp.run(nodes, size));
        }
        System.out.println(weftRow);
        System.out.println(jcspRow);
    }

    /** Appends the best time of {@code repeats} runs; checks each result against {@code reference} (null: none yet). */
    private static <R> R time(StringBuilder row, int repeats, R reference, Callable<R> run)
            throws Exception {
        long best = Long.MAX_VALUE;
        R result = reference;
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            R got = run.call();
            best = Math.min(best, System.nanoTime() - t0);
            if (result != null && !Objects.deepEquals(result, got)) {
                throw new IllegalStateException("a run gave another result than Weft on 1 node");
            }
            result = got;
        }
        row.append(String.format(" %.2f s |", best / 1e9));
        return result;
    }

    private static String[] text(int[] size) {
        return Arrays.stream(size).mapToObj(String::valueOf).toArray(String[]::new);
    }
}
