package dev.weft.samples.dist;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.NetProgram;
import java.util.ArrayList;
import java.util.List;

/**
 * Red-black successive over-relaxation of Laplace's equation on a square plate (top edge held at 1, the
 * others at 0), its rows split among the nodes. Before each half-sweep a node swaps its edge rows with its
 * neighbours; every few sweeps the largest change is reduced over channels to node 0, which tells every node
 * whether to go on. A point of one colour depends only on points of the other, and the reduction is a
 * maximum, so the result is the same bit for bit on any number of nodes.
 *
 * <p>Run: {@code java -cp "$NCP" dev.weft.samples.dist.Sor [nodes size]} (see {@link DistMain}).
 */
public final class Sor implements NetProgram<double[]> {
    private static final double OMEGA = 1.9;
    private static final double TOLERANCE = 1e-7;
    private static final int MAX_SWEEPS = 20_000;
    /** Sweeps between two convergence checks: each check is a reduction and a broadcast. */
    private static final int CHECK_EVERY = 10;

    /** Arg: the plate's side in points (default 200). Returns the plate, then the number of sweeps. */
    @Override
    @Pausable
    public double[] run(Cluster c) {
        int side = c.intArg(0, 200);
        Node node = c.node();
        int interior = side - 2;
        int lo = 1 + Blocks.start(interior, c.size(), c.index());
        int hi = 1 + Blocks.start(interior, c.size(), c.index() + 1);
        double[] grid = plate(side);
        Neighbours nb = Neighbours.register(c);
        int sweeps = 0;
        boolean goOn = true;
        while (goOn) {
            double change = 0;
            for (int colour = 0; colour < 2; colour++) {
                nb.swapEdges(grid, side, lo, hi);
                change = Math.max(change, halfSweep(grid, side, lo, hi, colour));
            }
            sweeps++;
            if (checksAfter(sweeps)) {
                goOn = nb.allAgreeToGoOn(change, sweeps);
                Fiber.yield(); // alone on one node nothing else pauses it: let the carrier breathe
            }
        }
        return nb.gather(grid, side, lo, hi, sweeps);
    }

    /** The plate before the first sweep: {@code side * side} points, row by row, the top row 1 and the rest 0. */
    public static double[] plate(int side) {
        double[] grid = new double[side * side];
        for (int col = 0; col < side; col++) {
            grid[col] = 1.0;
        }
        return grid;
    }

    /** Whether the nodes check for convergence after {@code sweeps} sweeps. */
    public static boolean checksAfter(int sweeps) {
        return sweeps % CHECK_EVERY == 0 || sweeps == MAX_SWEEPS;
    }

    /** Whether to sweep again after {@code sweeps} sweeps whose last changed no point by more than {@code largestChange}. */
    public static boolean goesOn(double largestChange, int sweeps) {
        return sweeps < MAX_SWEEPS && largestChange >= TOLERANCE;
    }

    /** Relaxes the points of {@code colour} in rows [lo, hi) of a {@code side}-wide plate; the largest change. */
    public static double halfSweep(double[] g, int side, int lo, int hi, int colour) {
        double largest = 0;
        for (int r = lo; r < hi; r++) {
            for (int col = 1 + (r + colour + 1) % 2; col < side - 1; col += 2) {
                int k = r * side + col;
                double next = g[k] + OMEGA * ((g[k - side] + g[k + side] + g[k - 1] + g[k + 1]) * 0.25 - g[k]);
                largest = Math.max(largest, Math.abs(next - g[k]));
                g[k] = next;
            }
        }
        return largest;
    }

    /** A node's channels: edge rows to and from the nodes above and below, the reduction, the result. */
    private static final class Neighbours {
        final Cluster c;
        final NetChannelInput<double[]> fromAbove;
        final NetChannelInput<double[]> fromBelow;
        final NetChannelInput<double[]> toZero;      // node 0: each node's largest change
        final NetChannelInput<Boolean> decision;    // the other nodes: node 0's word
        NetChannelOutput<double[]> toAbove;
        NetChannelOutput<double[]> toBelow;
        NetChannelOutput<double[]> changeToZero;
        final List<NetChannelOutput<Boolean>> decisions = new ArrayList<>();

        private Neighbours(Cluster c, NetChannelInput<double[]> fromAbove, NetChannelInput<double[]> fromBelow,
                           NetChannelInput<double[]> toZero, NetChannelInput<Boolean> decision) {
            this.c = c;
            this.fromAbove = fromAbove;
            this.fromBelow = fromBelow;
            this.toZero = toZero;
            this.decision = decision;
        }

        /** This node's inputs, registered at the name server (which may pause: not in a constructor). */
        @Pausable
        static Neighbours register(Cluster c) {
            Node node = c.node();
            int i = c.index();
            NetChannelInput<double[]> fromAbove = i > 0 ? node.net2one("sor.above." + i) : null;
            NetChannelInput<double[]> fromBelow = i < c.size() - 1 ? node.net2one("sor.below." + i) : null;
            NetChannelInput<double[]> toZero = i == 0 && c.size() > 1 ? node.net2one("sor.change") : null;
            NetChannelInput<Boolean> decision = i > 0 ? node.net2one("sor.decision." + i) : null;
            return new Neighbours(c, fromAbove, fromBelow, toZero, decision);
        }

        /** Sends this node's first and last rows to the neighbours and takes theirs into the halo rows. */
        @Pausable
        void swapEdges(double[] g, int side, int lo, int hi) {
            if (c.size() == 1) {
                return;
            }
            int i = c.index();
            if (i > 0 && toAbove == null) {
                toAbove = c.node().one2net("sor.below." + (i - 1));
            }
            if (i < c.size() - 1 && toBelow == null) {
                toBelow = c.node().one2net("sor.above." + (i + 1));
            }
            List<CSProcess> swaps = new ArrayList<>(4);
            if (toAbove != null) {
                double[] first = row(g, side, lo);
                swaps.add(() -> toAbove.write(first));
                swaps.add(() -> System.arraycopy(fromAbove.read(), 0, g, (lo - 1) * side, side));
            }
            if (toBelow != null) {
                double[] last = row(g, side, hi - 1);
                swaps.add(() -> toBelow.write(last));
                swaps.add(() -> System.arraycopy(fromBelow.read(), 0, g, hi * side, side));
            }
            Parallel.run(swaps.toArray(new CSProcess[0]));
        }

        /** Node 0 takes the largest change of all nodes and tells each whether to go on. */
        @Pausable
        boolean allAgreeToGoOn(double change, int sweeps) {
            if (c.size() == 1) {
                return goesOn(change, sweeps);
            }
            if (c.index() > 0) {
                if (changeToZero == null) {
                    changeToZero = c.node().one2net("sor.change");
                }
                changeToZero.write(new double[] {change});
                return decision.read();
            }
            double largest = change;
            for (int k = 1; k < c.size(); k++) {
                largest = Math.max(largest, toZero.read()[0]);
            }
            boolean goOn = goesOn(largest, sweeps);
            for (int k = 1; k < c.size(); k++) {
                if (decisions.size() < k) {
                    decisions.add(c.node().one2net("sor.decision." + k));
                }
                decisions.get(k - 1).write(goOn);
            }
            return goOn;
        }

        @Pausable
        double[] gather(double[] g, int side, int lo, int hi, int sweeps) {
            if (c.index() > 0) {
                double[] mine = new double[(hi - lo) * side + 1];
                mine[0] = lo;
                System.arraycopy(g, lo * side, mine, 1, (hi - lo) * side);
                c.node().<double[]>one2net("sor.result").write(mine);
                return null;
            }
            double[] all = new double[side * side + 1];
            System.arraycopy(g, 0, all, 0, hi * side);
            System.arraycopy(g, (side - 1) * side, all, (side - 1) * side, side);
            if (c.size() > 1) {
                NetChannelInput<double[]> parts = c.node().net2one("sor.result");
                for (int k = 1; k < c.size(); k++) {
                    double[] part = parts.read();
                    System.arraycopy(part, 1, all, (int) part[0] * side, part.length - 1);
                }
            }
            all[side * side] = sweeps;
            return all;
        }
    }

    private static double[] row(double[] g, int side, int r) {
        double[] copy = new double[side];
        System.arraycopy(g, r * side, copy, 0, side);
        return copy;
    }

    /** Runs on 1 node and on {@code args[0]} nodes, and checks that they agree. */
    public static void main(String[] args) {
        DistMain.compare(Sor.class, args, java.util.Arrays::equals);
    }
}
