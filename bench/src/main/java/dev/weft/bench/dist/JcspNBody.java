package dev.weft.bench.dist;

import dev.weft.samples.dist.Blocks;
import dev.weft.samples.dist.NBody;
import java.util.ArrayList;
import java.util.List;
import org.jcsp.lang.CSProcess;
import org.jcsp.lang.Parallel;
import org.jcsp.net2.NetAltingChannelInput;
import org.jcsp.net2.NetChannel;
import org.jcsp.net2.NetChannelOutput;

/**
 * The peer of Weft's {@link NBody} on JCSP.net2 1.1-rc5: the same ring of nodes, the same arithmetic
 * ({@link NBody#step}), node 0 in this JVM and the others in JVMs it starts. JCSP.net2 has no launcher, so
 * the wiring is by hand: each worker sends node 0 the locations of its ring and setup inputs, node 0 tells each
 * where its right-hand neighbour reads, and at the end every worker sends its bodies to node 0.
 */
public final class JcspNBody {
    private JcspNBody() {
    }

    /** A worker: {@code worker <node 0's input> index size bodies steps}. */
    public static void main(String[] args) throws Exception {
        JcspNodes.start();
        NetChannelOutput<Object> toZero = JcspNodes.to(args[1]);
        int index = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        NetAltingChannelInput<double[]> ring = NetChannel.net2one();
        NetAltingChannelInput<String> setup = NetChannel.net2one();
        toZero.write(new String[] {args[2], ring.getLocation().toString(), setup.getLocation().toString()});
        NetChannelOutput<double[]> right = JcspNodes.to(setup.read());
        double[] mine = simulate(index, size, Integer.parseInt(args[4]), Integer.parseInt(args[5]), ring, right);
        toZero.write(mine);
        System.exit(0); // a JCSP node cannot be stopped
    }

    /** Runs on {@code size} nodes (1: this JVM alone, no network); returns every body as {@link NBody} does. */
    public static double[] run(int size, int n, int steps) throws Exception {
        if (size == 1) {
            return simulate(0, 1, n, steps, null, null);
        }
        JcspNodes.start();
        NetAltingChannelInput<Object> fromWorkers = NetChannel.net2one();
        List<Process> workers = JcspNodes.startWorkers(JcspNBody.class, fromWorkers, size, String.valueOf(n),
                String.valueOf(steps));
        try {
            String[] ringOf = new String[size];
            String[] setupOf = new String[size];
            NetAltingChannelInput<double[]> ring = NetChannel.net2one();
            ringOf[0] = ring.getLocation().toString();
            for (int k = 1; k < size; k++) {
                String[] hello = (String[]) fromWorkers.read();
                int i = Integer.parseInt(hello[0]);
                ringOf[i] = hello[1];
                setupOf[i] = hello[2];
            }
            for (int i = 1; i < size; i++) {
                NetChannelOutput<String> setup = JcspNodes.to(setupOf[i]);
                setup.write(ringOf[(i + 1) % size]);
                setup.destroy();
            }
            NetChannelOutput<double[]> right = JcspNodes.to(ringOf[1]);
            double[] all = simulate(0, size, n, steps, ring, right);
            for (int k = 1; k < size; k++) {
                double[] part = (double[]) fromWorkers.read();
                int lo = Blocks.start(n, size, (int) part[0]);
                System.arraycopy(part, 1, all, 6 * lo, part.length - 1);
            }
            right.destroy();
            ring.destroy();
            fromWorkers.destroy();
            return all;
        } finally {
            JcspNodes.reap(workers);
        }
    }

    private static double[] simulate(int index, int size, int n, int steps, NetAltingChannelInput<double[]> left,
                                     NetChannelOutput<double[]> right) {
        int lo = Blocks.start(n, size, index);
        int hi = Blocks.start(n, size, index + 1);
        double[] pos = NBody.initialPositions(n);
        double[] vel = new double[3 * n];
        for (int s = 0; s < steps; s++) {
            int owner = index;
            for (int hop = 1; hop < size; hop++) {
                int from = Blocks.start(n, size, owner);
                int to = Blocks.start(n, size, owner + 1);
                double[] out = new double[4 * (to - from) + 1];
                out[0] = owner;
                System.arraycopy(pos, 4 * from, out, 1, 4 * (to - from));
                double[][] in = new double[1][];
                new Parallel(new CSProcess[] {() -> right.write(out), () -> in[0] = left.read()}).run();
                owner = (int) in[0][0];
                System.arraycopy(in[0], 1, pos, 4 * Blocks.start(n, size, owner), in[0].length - 1);
            }
            NBody.step(pos, vel, n, lo, hi);
        }
        double[] result = new double[index == 0 ? 6 * n : 6 * (hi - lo) + 1];
        int at = index == 0 ? 6 * lo : 1;
        if (index > 0) {
            result[0] = index; // a worker's block says whose it is
        }
        for (int i = lo; i < hi; i++) {
            System.arraycopy(pos, 4 * i, result, at + 6 * (i - lo), 3);
            System.arraycopy(vel, 3 * i, result, at + 6 * (i - lo) + 3, 3);
        }
        return result;
    }
}
