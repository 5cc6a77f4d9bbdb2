package dev.weft.samples.dist;

import dev.weft.net.launch.LaunchException;
import dev.weft.net.launch.Launcher;
import dev.weft.net.launch.NetProgram;
import java.util.Arrays;
import java.util.function.BiPredicate;

/**
 * The command line of the distributed samples: {@code <Sample> [nodes args...]} runs the sample on 1 node
 * and on {@code nodes} (default 2), each with the {@link Launcher} (worker JVMs on this machine), prints both
 * times (wall clock, worker JVM start-up included) and exits with 1 if the results differ.
 */
final class DistMain {
    private DistMain() {
    }

    static <R> void compare(Class<? extends NetProgram<R>> program, String[] args, BiPredicate<R, R> same) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        try {
            long t0 = System.nanoTime();
            R one = run(program, 1, rest);
            long t1 = System.nanoTime();
            R many = run(program, nodes, rest);
            long t2 = System.nanoTime();
            boolean agree = same.test(one, many);
            System.out.printf("%s %s: 1 node %d ms, %d nodes %d ms, results %s%n", program.getSimpleName(),
                    String.join(" ", rest), (t1 - t0) / 1_000_000, nodes, (t2 - t1) / 1_000_000,
                    agree ? "equal" : "DIFFER");
            System.out.println("result: " + describe(one));
            if (!agree) {
                System.exit(1);
            }
        } catch (LaunchException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** {@code program} on {@code nodes} nodes of this machine. */
    static <R> R run(Class<? extends NetProgram<R>> program, int nodes, String... args) {
        return Launcher.builder().nodes(nodes).build().run(program, args);
    }

    private static String describe(Object r) {
        if (r instanceof double[] d) {
            return d.length + " values, sum " + Arrays.stream(d).sum();
        }
        return String.valueOf(r);
    }
}
