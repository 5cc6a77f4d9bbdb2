package dev.weft.samples.dist;

import dev.weft.net.launch.NetProgram;
import java.util.Arrays;
import java.util.Objects;

/**
 * Times each distributed sample on 1, 2 and 4 nodes of this machine (worker JVMs started by the
 * {@link dev.weft.net.launch.Launcher}) and prints a Markdown table: the best wall-clock time of
 * {@code repeats} runs, worker JVM start-up included, and the speed-up over 1 node. Every run's result is
 * checked against the 1-node one. Run: {@code java -cp "$NCP" dev.weft.samples.dist.DistBench [repeats]}.
 */
public final class DistBench {
    private static final int[] NODES = {1, 2, 4};

    private DistBench() {
    }

    /** Times the three samples at the sizes of docs/distributed.md. */
    public static void main(String[] args) {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        System.out.println("| program | size | 1 node | 2 nodes | 4 nodes |");
        System.out.println("|---|---|---|---|---|");
        row(NBody.class, repeats, "8000", "40");
        row(Sor.class, repeats, "400");
        row(Tsp.class, repeats, "20");
    }

    private static <R> void row(Class<? extends NetProgram<R>> program, int repeats, String... size) {
        DistMain.run(program, 1, small(size)); // warms this JVM (node 0) up; worker JVMs start cold every run
        StringBuilder line = new StringBuilder("| " + program.getSimpleName() + " | " + String.join(" x ", size));
        R reference = null;
        long oneNode = 0;
        for (int nodes : NODES) {
            long best = Long.MAX_VALUE;
            for (int r = 0; r < repeats; r++) {
                long t0 = System.nanoTime();
                R result = DistMain.run(program, nodes, size);
                best = Math.min(best, System.nanoTime() - t0);
                if (reference == null) {
                    reference = result;
                } else if (!Objects.deepEquals(reference, result)) {
                    throw new IllegalStateException(program.getSimpleName() + " on " + nodes
                            + " nodes gave another result than on 1 node");
                }
            }
            if (nodes == 1) {
                oneNode = best;
            }
            line.append(String.format(" | %.2f s", best / 1e9));
            if (nodes > 1) {
                line.append(String.format(" (%.2fx)", (double) oneNode / best));
            }
        }
        System.out.println(line.append(" |"));
    }

    /** A small problem of the same shape, for warming up. */
    private static String[] small(String[] size) {
        return Arrays.stream(size).map(s -> String.valueOf(Math.max(9, Integer.parseInt(s) / 4))).toArray(String[]::new);
    }
}
