package dev.weft.bench.startup;

import dev.weft.csp.Scheduler;
import dev.weft.samples.CommsTime;
import dev.weft.samples.TokenRing;

/**
 * One short program, as a command-line tool or a test lives: started in a fresh JVM, it runs a workload once
 * at a tenth of its size (a warm-up, not counted), then once in full (about 100 ms), on one worker, and prints
 * the full run's figure as {@code RESULT key value}. bench/first-100ms.sh starts one per sample, beside Go's
 * binary doing the same ({@code gopeer short-...}).
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.startup.ShortRun ring1|ring64|commsTime...</pre>
 */
public final class ShortRun {
    /** Hops of the token ring's full run (256 elements): about 100 ms on one worker. */
    static final int RING_ROUND_TRIPS = 2048;
    /** Cycles of CommsTime's full run (4 communications each). */
    static final int COMMS_TIME_CYCLES = 250_000;

    private ShortRun() {
    }

    /** Runs the workloads named, in turn: ring1, ring64, commsTime (several: an AOT cache's training run). */
    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: ShortRun ring1|ring64|commsTime...");
            System.exit(2);
        }
        try (Scheduler scheduler = Scheduler.create(1)) {
            for (String workload : args) {
                run(scheduler, workload);
            }
        }
    }

    private static void run(Scheduler scheduler, String workload) {
        switch (workload) {
            case "ring1", "ring64" -> {
                int tokens = workload.equals("ring1") ? 1 : 64;
                TokenRing.run(scheduler, 256, tokens, RING_ROUND_TRIPS / 10);
                System.out.printf("RESULT %s %.1f%n", workload,
                        TokenRing.run(scheduler, 256, tokens, RING_ROUND_TRIPS).nanosPerHop());
            }
            case "commsTime" -> {
                CommsTime.run(scheduler, COMMS_TIME_CYCLES / 10);
                System.out.printf("RESULT %s %.1f%n", workload, CommsTime.run(scheduler, COMMS_TIME_CYCLES));
            }
            default -> throw new IllegalArgumentException("unknown workload " + workload
                    + ": ring1, ring64 or commsTime");
        }
    }
}
