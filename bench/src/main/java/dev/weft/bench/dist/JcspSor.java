package dev.weft.bench.dist;

import dev.weft.samples.dist.Blocks;
import dev.weft.samples.dist.Sor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jcsp.lang.CSProcess;
import org.jcsp.lang.ChannelInput;
import org.jcsp.lang.ChannelOutput;
import org.jcsp.lang.Parallel;
import org.jcsp.net2.NetAltingChannelInput;
import org.jcsp.net2.NetChannel;
import org.jcsp.net2.NetChannelOutput;

/**
 * The peer of Weft's {@link Sor} on JCSP.net2 1.1-rc5: the same rows per node, the same arithmetic
 * ({@link Sor#halfSweep}) and convergence test, node 0 in this JVM and the others in JVMs it starts. Wired by
 * hand: each worker sends node 0 the locations of its edge-row inputs and of its input from node 0, and node 0
 * tells each where its neighbours read. Every check, each worker sends node 0 its largest change and reads
 * whether to go on; at the end it sends node 0 its rows.
 */
public final class JcspSor {
    private JcspSor() {
    }

    /** How a node decides, at a check, whether every node sweeps again. */
    private interface Agreement {
        boolean goOn(double change, int sweeps);
    }

    /** A worker: {@code worker <node 0's input> index size side}. */
    public static void main(String[] args) throws Exception {
        JcspNodes.start();
        NetChannelOutput<Object> toZero = JcspNodes.to(args[1]);
        int index = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        int side = Integer.parseInt(args[4]);
        NetAltingChannelInput<double[]> fromAbove = NetChannel.net2one();
        NetAltingChannelInput<double[]> fromBelow = index < size - 1 ? NetChannel.net2one() : null;
        NetAltingChannelInput<Object> fromZero = NetChannel.net2one();
        toZero.write(new String[] {args[2], JcspNodes.at(fromAbove), JcspNodes.at(fromBelow), JcspNodes.at(fromZero)});
        String[] neighbours = (String[]) fromZero.read(); // where the nodes above and below read
        int lo = 1 + Blocks.start(side - 2, size, index);
        int hi = 1 + Blocks.start(side - 2, size, index + 1);
        double[] grid = Sor.plate(side);
        Parallel swap = edgeSwap(grid, side, lo, hi, fromAbove, JcspNodes.to(neighbours[0]), fromBelow,
                JcspNodes.to(neighbours[1]));
        relax(grid, side, lo, hi, swap, (change, sweeps) -> {
            toZero.write(new double[] {change});
            return (Boolean) fromZero.read();
        });
        double[] mine = new double[(hi - lo) * side + 1];
        mine[0] = lo;
        System.arraycopy(grid, lo * side, mine, 1, (hi - lo) * side);
        toZero.write(mine);
        System.exit(0); // a JCSP node cannot be stopped
    }

    /** Runs on {@code size} nodes (1: this JVM alone, no network); returns the plate and the sweeps as {@link Sor} does. */
    public static double[] run(int size, int side) throws Exception {
        double[] grid = Sor.plate(side);
        int hi = 1 + Blocks.start(side - 2, size, 1);
        if (size == 1) {
            return gather(grid, side, hi, relax(grid, side, 1, hi, null, (change, sweeps) -> Sor.goesOn(change, sweeps)));
        }
        JcspNodes.start();
        NetAltingChannelInput<Object> fromWorkers = NetChannel.net2one();
        List<Process> workers = JcspNodes.startWorkers(JcspSor.class, fromWorkers, size, String.valueOf(side));
        try {
            NetAltingChannelInput<double[]> fromBelow = NetChannel.net2one();
            String[][] hello = new String[size][];
            hello[0] = new String[] {"0", null, JcspNodes.at(fromBelow), null};
            for (int k = 1; k < size; k++) {
                String[] h = (String[]) fromWorkers.read();
                hello[Integer.parseInt(h[0])] = h;
            }
            List<NetChannelOutput<Object>> toWorkers = new ArrayList<>();
            for (int i = 1; i < size; i++) {
                NetChannelOutput<Object> out = JcspNodes.to(hello[i][3]);
                out.write(new String[] {hello[i - 1][2], i < size - 1 ? hello[i + 1][1] : null});
                toWorkers.add(out);
            }
            NetChannelOutput<double[]> toBelow = JcspNodes.to(hello[1][1]);
            Parallel swap = edgeSwap(grid, side, 1, hi, null, null, fromBelow, toBelow);
            int sweeps = relax(grid, side, 1, hi, swap, (change, s) -> {
                double largest = change;
                for (int k = 1; k < size; k++) {
                    largest = Math.max(largest, ((double[]) fromWorkers.read())[0]);
                }
                boolean goOn = Sor.goesOn(largest, s);
                for (NetChannelOutput<Object> out : toWorkers) {
                    out.write(goOn);
                }
                return goOn;
            });
            double[] all = gather(grid, side, hi, sweeps);
            for (int k = 1; k < size; k++) {
                double[] part = (double[]) fromWorkers.read();
                System.arraycopy(part, 1, all, (int) part[0] * side, part.length - 1);
            }
            swap.releaseAllThreads();
            toWorkers.forEach(JcspNodes::destroy);
            JcspNodes.destroy(toBelow, fromBelow, fromWorkers);
            return all;
        } finally {
            JcspNodes.reap(workers);
        }
    }

    /** Sweeps rows [lo, hi) until {@code agreement} says stop (swap: null alone); the number of sweeps. */
    private static int relax(double[] grid, int side, int lo, int hi, Parallel swap, Agreement agreement) {
        int sweeps = 0;
        boolean goOn = true;
        while (goOn) {
            double change = 0;
            for (int colour = 0; colour < 2; colour++) {
                if (swap != null) {
                    swap.run();
                }
                change = Math.max(change, Sor.halfSweep(grid, side, lo, hi, colour));
            }
            sweeps++;
            if (Sor.checksAfter(sweeps)) {
                goOn = agreement.goOn(change, sweeps);
            }
        }
        return sweeps;
    }

    /** One run sends rows lo and hi - 1 to the nodes above and below and takes theirs into the halo rows. */
    private static Parallel edgeSwap(double[] g, int side, int lo, int hi, ChannelInput<double[]> fromAbove,
                                     ChannelOutput<double[]> toAbove, ChannelInput<double[]> fromBelow,
                                     ChannelOutput<double[]> toBelow) {
        List<CSProcess> swaps = new ArrayList<>(4);
        if (toAbove != null) {
            swaps.add(() -> toAbove.write(Arrays.copyOfRange(g, lo * side, (lo + 1) * side)));
            swaps.add(() -> System.arraycopy(fromAbove.read(), 0, g, (lo - 1) * side, side));
        }
        if (toBelow != null) {
            swaps.add(() -> toBelow.write(Arrays.copyOfRange(g, (hi - 1) * side, hi * side)));
            swaps.add(() -> System.arraycopy(fromBelow.read(), 0, g, hi * side, side));
        }
        return new Parallel(swaps.toArray(new CSProcess[0]));
    }

    /** Node 0's result: its rows and the edges, room for the others', and the sweeps last. */
    private static double[] gather(double[] grid, int side, int hi, int sweeps) {
        double[] all = new double[side * side + 1];
        System.arraycopy(grid, 0, all, 0, hi * side);
        System.arraycopy(grid, (side - 1) * side, all, (side - 1) * side, side);
        all[side * side] = sweeps;
        return all;
    }
}
