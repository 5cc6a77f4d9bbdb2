package dev.weft.samples.dist;

import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.NetProgram;

/**
 * N-body on a ring of nodes: each node owns a block of bodies; at each step the blocks of positions go round
 * the ring (size - 1 hops) so that every node sees every body, then each node moves its own bodies. Forces
 * are summed over all bodies in index order whatever the number of nodes, so the result is the same bit for
 * bit on 1 node and on N. Node 0 gathers the final positions and velocities.
 *
 * <p>Run: {@code java -cp "$NCP" dev.weft.samples.dist.NBody [nodes bodies steps]} (see {@link DistMain}).
 */
public final class NBody implements NetProgram<double[]> {
    private static final double DT = 1e-3;
    private static final double SOFTENING = 1e-3;

    /** Args: bodies (default 2,000), steps (default 20). Returns x, y, z, vx, vy, vz of every body. */
    @Override
    @Pausable
    public double[] run(Cluster c) {
        int n = c.intArg(0, 2_000);
        int steps = c.intArg(1, 20);
        Node node = c.node();
        int lo = Blocks.start(n, c.size(), c.index());
        int hi = Blocks.start(n, c.size(), c.index() + 1);
        double[] pos = initialPositions(n);        // x, y, z, mass of every body; this node moves [lo, hi)
        double[] vel = new double[3 * n];
        NetChannelInput<double[]> fromLeft = c.size() > 1 ? node.net2one("nbody.ring." + c.index()) : null;
        NetChannelOutput<double[]> toRight = c.size() > 1
                ? node.one2net("nbody.ring." + (c.index() + 1) % c.size()) : null;
        for (int s = 0; s < steps; s++) {
            passBlocksRound(c, n, pos, lo, fromLeft, toRight);
            Weft.blocking(() -> step(pos, vel, n, lo, hi)); // seconds of arithmetic: off the carrier
        }
        return gather(c, n, pos, vel, lo, hi);
    }

    /** The bodies' starting places and masses: a fixed pseudo-random cloud. */
    public static double[] initialPositions(int n) {
        double[] pos = new double[4 * n];
        long seed = 42;
        for (int i = 0; i < 4 * n; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            double u = (seed >>> 11) * 0x1.0p-53;
            pos[i] = i % 4 == 3 ? 1.0 / n + u / n : u - 0.5;
        }
        return pos;
    }

    /** size - 1 hops: at each, send the block last received (first: this node's) right, take one from the left. */
    @Pausable
    private static void passBlocksRound(Cluster c, int n, double[] pos, int lo,
                                        NetChannelInput<double[]> fromLeft, NetChannelOutput<double[]> toRight) {
        int owner = c.index();
        for (int hop = 1; hop < c.size(); hop++) {
            int from = Blocks.start(n, c.size(), owner);
            int to = Blocks.start(n, c.size(), owner + 1);
            double[] out = new double[4 * (to - from) + 1];
            out[0] = owner;
            System.arraycopy(pos, 4 * from, out, 1, 4 * (to - from));
            double[][] in = new double[1][];
            Parallel.run(() -> toRight.write(out), () -> in[0] = fromLeft.read());
            owner = (int) in[0][0];
            System.arraycopy(in[0], 1, pos, 4 * Blocks.start(n, c.size(), owner), in[0].length - 1);
        }
    }

    /** Moves bodies [lo, hi) by one step, the force on each summed over j = 0..n-1 in that order (a Callable's shape). */
    public static Void step(double[] pos, double[] vel, int n, int lo, int hi) {
        double[] moved = new double[3 * (hi - lo)];
        for (int i = lo; i < hi; i++) {
            double xi = pos[4 * i];
            double yi = pos[4 * i + 1];
            double zi = pos[4 * i + 2];
            double ax = 0;
            double ay = 0;
            double az = 0;
            for (int j = 0; j < n; j++) {
                double dx = pos[4 * j] - xi;
                double dy = pos[4 * j + 1] - yi;
                double dz = pos[4 * j + 2] - zi;
                double d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
                double f = pos[4 * j + 3] / (d2 * Math.sqrt(d2));
                ax += f * dx;
                ay += f * dy;
                az += f * dz;
            }
            vel[3 * i] += DT * ax;
            vel[3 * i + 1] += DT * ay;
            vel[3 * i + 2] += DT * az;
            moved[3 * (i - lo)] = xi + DT * vel[3 * i];
            moved[3 * (i - lo) + 1] = yi + DT * vel[3 * i + 1];
            moved[3 * (i - lo) + 2] = zi + DT * vel[3 * i + 2];
        }
        for (int i = lo; i < hi; i++) { // after every force is computed: all read the same step's positions
            System.arraycopy(moved, 3 * (i - lo), pos, 4 * i, 3);
        }
        return null;
    }

    /** Node 0 takes every node's bodies; the others send theirs and return nothing. */
    @Pausable
    private static double[] gather(Cluster c, int n, double[] pos, double[] vel, int lo, int hi) {
        if (c.index() > 0) {
            double[] mine = new double[6 * (hi - lo) + 1];
            mine[0] = c.index();
            pack(pos, vel, lo, hi, mine, 1);
            c.node().<double[]>one2net("nbody.result").write(mine);
            return null;
        }
        double[] all = new double[6 * n];
        pack(pos, vel, lo, hi, all, 0);
        if (c.size() > 1) {
            NetChannelInput<double[]> results = c.node().net2one("nbody.result");
            for (int k = 1; k < c.size(); k++) {
                double[] part = results.read();
                int from = Blocks.start(n, c.size(), (int) part[0]);
                System.arraycopy(part, 1, all, 6 * from, part.length - 1);
            }
        }
        return all;
    }

    private static void pack(double[] pos, double[] vel, int lo, int hi, double[] into, int at) {
        for (int i = lo; i < hi; i++) {
            int k = at + 6 * (i - lo);
            System.arraycopy(pos, 4 * i, into, k, 3);
            System.arraycopy(vel, 3 * i, into, k + 3, 3);
        }
    }

    /** Runs on 1 node and on {@code args[0]} nodes, and checks that they agree. */
    public static void main(String[] args) {
        DistMain.compare(NBody.class, args, java.util.Arrays::equals);
    }
}
