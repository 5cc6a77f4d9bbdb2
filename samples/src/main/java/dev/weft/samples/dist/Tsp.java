package dev.weft.samples.dist;

import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.NetConnectionServer;
import dev.weft.net.Node;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.NetProgram;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The travelling salesman by branch and bound, as a farm: node 0's farmer hands out tours begun with three
 * cities through a connection server; one searcher per node asks for the next, reporting the best tour length
 * it knows, and searches every completion of it that could beat the best known. A better length reaches the
 * farmer with the next request and is broadcast at once to every node, whose bound reader hands it to its
 * searcher: every node prunes with the best tour found anywhere. The optimal length is the same on any
 * number of nodes.
 *
 * <p>Run: {@code java -cp "$NCP" dev.weft.samples.dist.Tsp [nodes cities]} (see {@link DistMain}).
 */
public final class Tsp implements NetProgram<Integer> {
    /** Arg: the number of cities (default 13). Returns the length of the shortest tour. */
    @Override
    @Pausable
    public Integer run(Cluster c) {
        int[][] dist = distances(c.intArg(0, 13));
        Node node = c.node();
        AtomicInteger best = new AtomicInteger(Integer.MAX_VALUE);
        NetChannelInput<Integer> bounds = node.net2one("tsp.bound." + c.index());
        NetConnectionServer<int[], int[]> jobs = c.index() == 0 ? node.connectionServer("tsp.jobs") : null;
        int[] result = new int[1];
        Parallel.run(
                () -> {
                    if (jobs != null) {
                        result[0] = farm(c, dist.length, jobs);
                    }
                },
                () -> search(node, dist, best),
                () -> {
                    for (int b = bounds.read(); b >= 0; b = bounds.read()) {
                        best.accumulateAndGet(b, Math::min);
                    }
                });
        return c.index() == 0 ? result[0] : null;
    }

    /** Integer distances between n cities at fixed pseudo-random places on a 1000 x 1000 square. */
    public static int[][] distances(int n) {
        double[] x = new double[n];
        double[] y = new double[n];
        long seed = 7;
        for (int i = 0; i < n; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            x[i] = (seed >>> 11) * 0x1.0p-53 * 1000;
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            y[i] = (seed >>> 11) * 0x1.0p-53 * 1000;
        }
        int[][] d = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                d[i][j] = (int) Math.round(Math.hypot(x[i] - x[j], y[i] - y[j]));
            }
        }
        return d;
    }

    /**
     * Hands out every tour begun 0, a, b; takes the best length each searcher reports with its request and
     * broadcasts a better one to every node; ends when every searcher has heard there is no more work.
     */
    @Pausable
    private static int farm(Cluster c, int n, NetConnectionServer<int[], int[]> jobs) {
        List<NetChannelOutput<Integer>> boundOf = new ArrayList<>();
        for (int k = 0; k < c.size(); k++) {
            boundOf.add(c.node().one2net("tsp.bound." + k));
        }
        List<int[]> work = jobs(n);
        int best = Integer.MAX_VALUE;
        int next = 0;
        int stopped = 0;
        while (stopped < c.size()) {
            int reported = jobs.accept()[0];
            if (reported < best) {
                best = reported;
                for (NetChannelOutput<Integer> out : boundOf) {
                    out.write(best);
                }
            }
            if (next < work.size()) {
                int[] job = work.get(next++);
                int[] reply = Arrays.copyOf(new int[] {best}, 1 + job.length);
                System.arraycopy(job, 0, reply, 1, job.length);
                jobs.reply(reply);
            } else {
                jobs.reply(new int[] {best});
                stopped++;
            }
        }
        for (NetChannelOutput<Integer> out : boundOf) {
            out.write(-1); // the bound readers end
        }
        return best;
    }

    /** The farm's work, in the order it is handed out: every tour of n cities begun 0, a, b. */
    public static List<int[]> jobs(int n) {
        List<int[]> work = new ArrayList<>();
        for (int a = 1; a < n; a++) {
            for (int b = 1; b < n; b++) {
                if (a != b) {
                    work.add(new int[] {0, a, b});
                }
            }
        }
        return work;
    }

    /** This node's searcher: asks for tours to complete until there are none. */
    @Pausable
    private static void search(Node node, int[][] dist, AtomicInteger best) {
        ConnectionClient<int[], int[]> jobs = node.connectionClient("tsp.jobs");
        Search s = new Search(dist, best);
        for (;;) {
            int[] job = jobs.request(new int[] {best.get()});
            best.accumulateAndGet(job[0], Math::min);
            if (job.length == 1) {
                return;
            }
            int[] begun = Arrays.copyOfRange(job, 1, job.length);
            Weft.blocking(() -> s.complete(begun)); // off the carrier: the farmer and the bound reader stay responsive
        }
    }

    /** Depth-first completion of a begun tour, pruned by a lower bound: length so far plus each open city's cheapest way out. */
    public static final class Search {
        private final int[][] dist;
        private final AtomicInteger best;
        private final int[] cheapestOut;
        /** Each city's others, nearest first: good tours first, so the bound tightens early. */
        private final int[][] nearest;

        /** A search of the cities at {@code dist}, pruning with and lowering {@code best}, shared with others. */
        public Search(int[][] dist, AtomicInteger best) {
            this.dist = dist;
            this.best = best;
            int n = dist.length;
            cheapestOut = new int[n];
            nearest = new int[n][];
            for (int i = 0; i < n; i++) {
                int from = i;
                nearest[i] = java.util.stream.IntStream.range(0, n).filter(j -> j != from).boxed()
                        .sorted((p, q) -> Integer.compare(dist[from][p], dist[from][q]))
                        .mapToInt(Integer::intValue).toArray();
                cheapestOut[i] = dist[i][nearest[i][0]];
            }
        }

        /** Searches every completion of {@code begun}; returns the best length known after it. */
        public int complete(int[] begun) {
            long visited = 0;
            int length = 0;
            int openOut = 0;
            for (int i = 0; i < begun.length; i++) {
                visited |= 1L << begun[i];
                if (i > 0) {
                    length += dist[begun[i - 1]][begun[i]];
                }
            }
            for (int i = 0; i < dist.length; i++) {
                if ((visited & 1L << i) == 0) {
                    openOut += cheapestOut[i];
                }
            }
            extend(begun[begun.length - 1], visited, begun.length, length, openOut);
            return best.get();
        }

        /** openOut: the sum of cheapestOut over cities not yet visited. */
        private void extend(int at, long visited, int count, int length, int openOut) {
            if (length + cheapestOut[at] + openOut >= best.get()) {
                return;
            }
            int n = dist.length;
            if (count == n) {
                best.accumulateAndGet(length + dist[at][0], Math::min);
                return;
            }
            for (int next : nearest[at]) {
                if ((visited & 1L << next) == 0) {
                    extend(next, visited | 1L << next, count + 1, length + dist[at][next], openOut - cheapestOut[next]);
                }
            }
        }
    }

    /** Runs on 1 node and on {@code args[0]} nodes, and checks that they agree. */
    public static void main(String[] args) {
        DistMain.compare(Tsp.class, args, Integer::equals);
    }
}
