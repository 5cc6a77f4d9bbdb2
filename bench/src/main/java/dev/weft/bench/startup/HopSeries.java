package dev.weft.bench.startup;

import dev.weft.csp.Scheduler;
import dev.weft.samples.CommsTime;
import dev.weft.samples.TokenRing;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.locks.LockSupport;

/**
 * A short program's progress as a time series: runs one of {@link ShortRun}'s workloads (a warm-up at a tenth of
 * its size, then the full run) while a sampler thread reads the worker's count of dispatched slices every
 * millisecond, and prints the samples on the JVM's uptime (ms), the clock of {@code -XX:+LogCompilation}'s
 * stamps, so that the cost of a hop can be set beside what the JIT compiled, queued and threw away at the time.
 * On one worker each hop of the token ring is one slice, and each communication of CommsTime about one.
 *
 * <pre>java -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=jit.log \
 *     -cp bench/target/benchmarks.jar dev.weft.bench.startup.HopSeries ring1|ring64|commsTime</pre>
 *
 * <p>Prints {@code RESULT workload figure} as ShortRun does, {@code WARMUP start end} and
 * {@code MEASURED start end hops} (uptime ms), then one {@code S uptime slices} line per sample. The sampler
 * reads the worker's {@code slices} field by reflection (a diagnostic, not an API) and sleeps between reads, so
 * it takes little of a core from the program.
 */
public final class HopSeries {
    private static final int MAX_SAMPLES = 100_000;

    private HopSeries() {
    }

    /** Runs {@code args[0]}: ring1, ring64 or commsTime. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: HopSeries ring1|ring64|commsTime");
            System.exit(2);
        }
        String workload = args[0];
        long[] at = new long[MAX_SAMPLES];
        int[] slices = new int[MAX_SAMPLES];
        int[] taken = new int[1];
        try (Scheduler scheduler = Scheduler.create(1)) {
            Object worker = onlyWorker(scheduler);
            Field count = worker.getClass().getDeclaredField("slices");
            count.setAccessible(true);
            Thread sampler = new Thread(() -> {
                try {
                    for (int i = 0; i < MAX_SAMPLES && !Thread.currentThread().isInterrupted(); i++) {
                        at[i] = System.nanoTime();
                        slices[i] = count.getInt(worker);
                        taken[0] = i + 1;
                        LockSupport.parkNanos(1_000_000);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }, "hop-series sampler");
            sampler.setDaemon(true);
            sampler.start();
            long warmStart = System.nanoTime();
            long hops;
            double figure;
            long start;
            if (workload.equals("ring1") || workload.equals("ring64")) {
                int tokens = workload.equals("ring1") ? 1 : 64;
                TokenRing.run(scheduler, 256, tokens, ShortRun.RING_ROUND_TRIPS / 10);
                start = System.nanoTime();
                TokenRing.Result r = TokenRing.run(scheduler, 256, tokens, ShortRun.RING_ROUND_TRIPS);
                figure = r.nanosPerHop();
                hops = r.hops;
            } else if (workload.equals("commsTime")) {
                CommsTime.run(scheduler, ShortRun.COMMS_TIME_CYCLES / 10);
                start = System.nanoTime();
                figure = CommsTime.run(scheduler, ShortRun.COMMS_TIME_CYCLES);
                hops = 4L * ShortRun.COMMS_TIME_CYCLES;
            } else {
                throw new IllegalArgumentException("unknown workload " + workload + ": ring1, ring64 or commsTime");
            }
            long end = System.nanoTime();
            sampler.interrupt();
            sampler.join();
            // The JVM's uptime is read only now: the management classes it loads would load during the run.
            long now = System.nanoTime();
            double offset = ManagementFactory.getRuntimeMXBean().getUptime() - now / 1e6;
            System.out.printf("RESULT %s %.1f%n", workload, figure);
            System.out.printf("WARMUP %.1f %.1f%n", warmStart / 1e6 + offset, start / 1e6 + offset);
            System.out.printf("MEASURED %.1f %.1f %d%n", start / 1e6 + offset, end / 1e6 + offset, hops);
            for (int i = 0; i < taken[0]; i++) {
                System.out.printf("S %.3f %d%n", at[i] / 1e6 + offset, slices[i]);
            }
        }
    }

    /** The worker of a one-worker scheduler, read by reflection (a diagnostic). */
    private static Object onlyWorker(Scheduler scheduler) throws ReflectiveOperationException {
        Field pool = Scheduler.class.getDeclaredField("pool");
        pool.setAccessible(true);
        Object p = pool.get(scheduler);
        Method workers = p.getClass().getDeclaredMethod("workers");
        workers.setAccessible(true);
        return ((Object[]) workers.invoke(p))[0];
    }
}
