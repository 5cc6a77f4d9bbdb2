package dev.weft.bench.startup;

import dev.weft.csp.Scheduler;
import dev.weft.samples.CommsTime;
import dev.weft.samples.TokenRing;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * One short program, as a command-line tool or a test lives: started in a fresh JVM, it runs a workload once
 * at a tenth of its size (a warm-up, not counted), then once in full (about 100 ms), on one worker, and prints
 * the full run's figure as {@code RESULT key value}. bench/first-100ms.sh starts one per sample, beside Go's
 * binary doing the same ({@code gopeer short-...}). It also prints {@code CPU key worker process}: the processor
 * time of the full run per hop or communication, of the worker's thread (the busiest thread over the run) and of
 * the whole process, figures that a loaded machine spoils less than the wall time.
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
                CpuTime cpu = new CpuTime();
                TokenRing.Result r = TokenRing.run(scheduler, 256, tokens, RING_ROUND_TRIPS);
                System.out.printf("RESULT %s %.1f%n", workload, r.nanosPerHop());
                cpu.print(workload, r.hops);
            }
            case "commsTime" -> {
                CommsTime.run(scheduler, COMMS_TIME_CYCLES / 10);
                CpuTime cpu = new CpuTime();
                System.out.printf("RESULT %s %.1f%n", workload, CommsTime.run(scheduler, COMMS_TIME_CYCLES));
                cpu.print(workload, 4L * COMMS_TIME_CYCLES);
            }
            default -> throw new IllegalArgumentException("unknown workload " + workload
                    + ": ring1, ring64 or commsTime");
        }
    }

    /** The processor time of every thread and of the process from its making to {@link #print}. */
    private static final class CpuTime {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private final long[] ids = threads.getAllThreadIds(); // the worker is among them: it runs the warm-up
        private final long[] start = new long[ids.length];
        private final long process;

        CpuTime() {
            for (int i = 0; i < ids.length; i++) {
                start[i] = threads.getThreadCpuTime(ids[i]);
            }
            process = os.getProcessCpuTime();
        }

        /** Prints {@code CPU key worker process}, each in ns per unit (hop or communication). */
        void print(String key, long units) {
            long processNow = os.getProcessCpuTime();
            long busiest = 0;
            for (int i = 0; i < ids.length; i++) {
                long now = threads.getThreadCpuTime(ids[i]);
                if (now >= 0 && start[i] >= 0) {
                    busiest = Math.max(busiest, now - start[i]);
                }
            }
            System.out.printf("CPU %s %.1f %.1f%n", key, (double) busiest / units,
                    (double) (processNow - process) / units);
        }
    }
}
