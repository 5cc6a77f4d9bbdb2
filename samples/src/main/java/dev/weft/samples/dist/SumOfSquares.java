package dev.weft.samples.dist;

import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelInput;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.Launcher;
import dev.weft.net.launch.NetProgram;

/**
 * The launcher example of docs/distributed.md: each worker node sends the square of its index to node 0, which adds them
 * up. Run: {@code java -cp "$NCP" dev.weft.samples.dist.SumOfSquares [nodes]}.
 */
public final class SumOfSquares implements NetProgram<Long> {
    @Override
    @Pausable
    public Long run(Cluster c) {
        if (c.index() > 0) {                                       // a worker: one square to node 0
            c.node().<Long>one2net("squares").write((long) c.index() * c.index());
            return null;
        }
        NetChannelInput<Long> squares = c.node().net2one("squares");
        long sum = 0;
        for (int i = 1; i < c.size(); i++) {
            sum += squares.read();
        }
        return sum;
    }

    /** Prints the sum over {@code args[0]} nodes (default 4). */
    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long sum = Launcher.builder().nodes(nodes).build().run(SumOfSquares.class);    // 1 + 4 + 9
        System.out.println("sum of squares over " + nodes + " nodes: " + sum);
    }
}
