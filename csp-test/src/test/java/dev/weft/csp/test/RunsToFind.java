package dev.weft.csp.test;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.Arrays;

/**
 * How many runs it takes to find each of {@link Bugs}: the explorer (the median, over several explorations
 * that start from different seeds, of the runs until the first failure), against the same process run the
 * ordinary way on {@code Scheduler.create(2)} as many times. Prints a table (Markdown).
 *
 * <pre>mvn -B -pl csp-test verify
 * mvn -B -pl csp-test exec:java -Dexec.mainClass=dev.weft.csp.test.RunsToFind -Dexec.classpathScope=test \
 *   -Dexec.args="21 1000"     # explorations, runs per exploration (and ordinary runs)</pre>
 */
public final class RunsToFind {
    private RunsToFind() {
    }

    public static void main(String[] args) {
        int explorations = args.length > 0 ? Integer.parseInt(args[0]) : 21;
        int cap = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        double[] preemptions = {0, 0.2};
        System.out.println("| bug | explorer, no preemption: median runs (found in) | explorer, preemption 0.2: median"
                + " runs (found in) | Scheduler.create(2): failing runs of " + cap + " |");
        System.out.println("|---|---|---|---|");
        for (Bugs.Bug bug : Bugs.ALL) {
            StringBuilder row = new StringBuilder("| " + bug + " |");
            for (double p : preemptions) {
                row.append(' ').append(explored(bug, new Explorer(p, Explorer.DEFAULT_STEP_BUDGET), explorations, cap))
                        .append(" |");
            }
            row.append(' ').append(plainFailures(bug, cap)).append(" |");
            System.out.println(row);
        }
        System.out.println();
        for (Bugs.Bug bug : Bugs.ALL) {
            ScheduleFailure f = new Explorer(0.2, Explorer.DEFAULT_STEP_BUDGET).explore(0, cap, ctx -> bug.process().run());
            System.out.println("- " + bug + ": " + (f == null ? "not found" : f.getMessage().lines().findFirst().orElse("")));
        }
        System.exit(0);
    }

    /** The median number of runs to the first failure, over explorations from seeds 0, cap, 2 cap... */
    private static String explored(Bugs.Bug bug, Explorer explorer, int explorations, int cap) {
        int[] runs = new int[explorations];
        int found = 0;
        for (int e = 0; e < explorations; e++) {
            ScheduleFailure f = explorer.explore((long) e * cap, cap, ctx -> bug.process().run());
            runs[e] = f == null ? Integer.MAX_VALUE : f.runs();
            found += f == null ? 0 : 1;
        }
        Arrays.sort(runs);
        int median = runs[explorations / 2];
        return (median == Integer.MAX_VALUE ? "> " + cap : String.valueOf(median)) + " (" + found + "/" + explorations + ")";
    }

    /** How many of {@code runs} ordinary runs fail, on one two-worker scheduler. */
    private static int plainFailures(Bugs.Bug bug, int runs) {
        int failures = 0;
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < runs; i++) {
                try {
                    Weft.run(s, bug.process());
                } catch (Throwable t) {
                    failures++;
                }
            }
        }
        return failures;
    }
}
