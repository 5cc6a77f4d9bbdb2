package dev.weft.bench.harness;

import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;

/**
 * The tail of a read's latency on a contended any2any channel: fibers (on two workers) and plain threads
 * write to and read from one shared channel while busy threads keep more threads runnable than there are
 * cores. Each reader times each of its reads (the wait for a writer included); prints p50, p99, p99.9, p99.99
 * and max for fiber readers, thread readers and all, and reads per second:
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.harness.SharedChannelTail FIBERS THREADS BUSY SECONDS</pre>
 *
 * <p>FIBERS readers and as many writers are fibers, THREADS readers and as many writers plain threads.
 * Defaults: 4 and 2, 4 busy threads, 5 measured seconds after 2 of warm-up.
 */
public final class SharedChannelTail {
    private static final long WARM_UP_NANOS = 2_000_000_000L;
    private static final Long VALUE = 42L;

    private SharedChannelTail() {
    }

    /** Runs the measurement: {@code args} FIBERS THREADS BUSY SECONDS, each optional. */
    public static void main(String[] args) throws Exception {
        int fibers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int busy = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        Any2AnyChannel<Long> ch = Channel.any2any();
        long measureFrom = System.nanoTime() + WARM_UP_NANOS;
        long end = measureFrom + seconds * 1_000_000_000L;
        LatencyHistogram[] fiberReads = new LatencyHistogram[fibers];
        LatencyHistogram[] threadReads = new LatencyHistogram[threads];
        List<Fiber> started = new ArrayList<>();
        List<Thread> plain = new ArrayList<>();
        try (BusyThreads load = new BusyThreads(busy); Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < fibers; i++) {
                LatencyHistogram h = fiberReads[i] = new LatencyHistogram();
                started.add(Weft.spawn(s, () -> read(ch, h, measureFrom, end)));
                started.add(Weft.spawn(s, () -> write(ch)));
            }
            for (int i = 0; i < threads; i++) {
                LatencyHistogram h = threadReads[i] = new LatencyHistogram();
                Thread r = new Thread(() -> read(ch, h, measureFrom, end), "reader-" + i);
                Thread w = new Thread(() -> write(ch), "writer-" + i);
                r.start();
                w.start();
                plain.add(r);
                plain.add(w);
            }
            while (System.nanoTime() - end < 0) {
                Thread.sleep(50);
            }
            ch.in().poison(); // ends every reader and writer, waiting or not
            for (Fiber f : started) {
                f.join();
            }
            for (Thread t : plain) {
                t.join();
            }
        }
        LatencyHistogram fromFibers = merge(fiberReads);
        LatencyHistogram fromThreads = merge(threadReads);
        LatencyHistogram all = new LatencyHistogram();
        all.add(fromFibers);
        all.add(fromThreads);
        System.out.printf("any2any: %d fiber readers and writers (2 workers), %d thread readers and writers,"
                + " %d busy threads, %d cores, %d s%n", fibers, threads, busy,
                Runtime.getRuntime().availableProcessors(), seconds);
        System.out.println("read, fibers:  " + fromFibers.summary());
        System.out.println("read, threads: " + fromThreads.summary());
        System.out.println("read, all:     " + all.summary());
        System.out.printf("reads: %,.0f per second%n", (double) all.count() / seconds);
        System.out.println("RESULT sharedReadFibers " + fromFibers.figures());
        System.out.println("RESULT sharedReadThreads " + fromThreads.figures());
        System.out.println("RESULT sharedRead " + all.figures());
        System.out.printf("RESULT sharedReadsPerSecond %.0f%n", (double) all.count() / seconds);
    }

    private static LatencyHistogram merge(LatencyHistogram[] hs) {
        LatencyHistogram sum = new LatencyHistogram();
        for (LatencyHistogram h : hs) {
            sum.add(h);
        }
        return sum;
    }

    @Pausable
    private static void read(Any2AnyChannel<Long> ch, LatencyHistogram h, long measureFrom, long end) {
        try {
            for (;;) {
                long t0 = System.nanoTime();
                ch.in().read();
                long t1 = System.nanoTime();
                if (t0 - measureFrom >= 0 && t1 - end < 0) {
                    h.record(t1 - t0);
                }
            }
        } catch (PoisonException done) {
            // the run is over
        }
    }

    @Pausable
    private static void write(Any2AnyChannel<Long> ch) {
        try {
            for (;;) {
                ch.out().write(VALUE);
            }
        } catch (PoisonException done) {
            // the run is over
        }
    }
}
