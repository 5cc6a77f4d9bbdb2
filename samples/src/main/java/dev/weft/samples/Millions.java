package dev.weft.samples;

import dev.weft.csp.Barrier;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVMCSP "max process count" test (Shrestha and Pedersen): a par-for of {@code count} iterations, each
 * making two channels and running two processes, {@code foo} and {@code bar}, that exchange one value each way;
 * each of them is itself a par of a reader and a writer. That is 7 processes per iteration (the iteration's
 * body, foo, bar and their four halves) plus the main one: 7,000,001 processes for a count of 1,000,000.
 *
 * <p>To weigh them, every writer first waits at a gate (a barrier of all writers): when the last writer
 * arrives, all 7 * count processes exist and are blocked (readers on their channels, writers at the gate,
 * the others joining their children), and the heap is measured after a full GC. The figure includes the two
 * channels of each iteration, the par bookkeeping and the gate's list of waiting writers (about 3 bytes per
 * process), like JVMCSP's 262 bytes per process included its channels.
 *
 * <p>Run: {@code java -Xmx8g -cp samples/target/classes:csp-core/target/classes dev.weft.samples.Millions
 * [count workers]} (defaults 1,000,000 and 1). Raise {@code -Xmx} and the count to see how many fit.
 */
public final class Millions {
    private Millions() {
    }

    /** What one run measured. */
    public static final class Result {
        /** Processes created, the main one included. */
        public final long processes;
        /** Values exchanged: two per iteration. */
        public final long exchanges;
        /** Heap bytes per process with all of them alive, after a full GC (channels included). */
        public final double bytesPerProcess;
        /** Wall-clock time of the whole run, in nanoseconds. */
        public final long nanos;

        Result(long processes, long exchanges, double bytesPerProcess, long nanos) {
            this.processes = processes;
            this.exchanges = exchanges;
            this.bytesPerProcess = bytesPerProcess;
            this.nanos = nanos;
        }
    }

    /** Runs the test with {@code args[0]} iterations (default 1,000,000) on {@code args[1]} workers (default 1). */
    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0].replace(",", "").replace("_", "")) : 1_000_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        try (Scheduler scheduler = Scheduler.create(workers)) {
            Result r = run(scheduler, count);
            System.out.printf("Millions: %,d processes alive at once, %.0f bytes per process (with their channels); "
                            + "%,d values exchanged in %d ms, %d worker%s%n", r.processes, r.bytesPerProcess,
                    r.exchanges, r.nanos / 1_000_000, workers, workers == 1 ? "" : "s");
        } catch (OutOfMemoryError e) {
            System.out.printf("Millions: %,d iterations (%,d processes) do not fit in this heap (-Xmx%dm); "
                    + "lower the count or raise -Xmx%n", count, 7L * count + 1, Runtime.getRuntime().maxMemory() >> 20);
            System.exit(1);
        }
    }

    /** One run of {@code count} iterations. */
    public static Result run(Scheduler scheduler, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, got " + count);
        }
        AtomicInteger exchanged = new AtomicInteger();
        Gate gate = new Gate(2 * count);
        long start = System.nanoTime();
        Weft.run(scheduler, () -> Parallel.forRange(0, count, i -> {
            One2OneChannel<Integer> c1 = Channel.one2one();
            One2OneChannel<Integer> c2 = Channel.one2one();
            Parallel.run(
                    () -> foo(c1.in(), c2.out(), gate, exchanged),
                    () -> bar(c1.out(), c2.in(), gate, exchanged));
        }));
        long nanos = System.nanoTime() - start;
        long processes = 7L * count + 1;
        return new Result(processes, exchanged.get(), (double) gate.bytes / processes, nanos);
    }

    @Pausable
    static void foo(ChannelInput<Integer> c1r, ChannelOutput<Integer> c2w, Gate gate, AtomicInteger exchanged) {
        Parallel.run(
                () -> read(c1r, exchanged),
                () -> {
                    gate.pass();
                    c2w.write(10);
                });
    }

    @Pausable
    static void bar(ChannelOutput<Integer> c1w, ChannelInput<Integer> c2r, Gate gate, AtomicInteger exchanged) {
        Parallel.run(
                () -> read(c2r, exchanged),
                () -> {
                    gate.pass();
                    c1w.write(20);
                });
    }

    @Pausable
    static void read(ChannelInput<Integer> in, AtomicInteger exchanged) {
        in.read();
        exchanged.incrementAndGet();
    }

    /** A barrier of all writers; the last to arrive weighs the heap before letting everyone through. */
    static final class Gate {
        private final Barrier barrier;
        private final AtomicInteger arrived = new AtomicInteger();
        private final int parties;
        private final long baseline;
        volatile long bytes;

        Gate(int parties) {
            this.parties = parties;
            this.barrier = new Barrier(parties);
            this.baseline = usedHeapAfterGc();
        }

        @Pausable
        void pass() {
            if (arrived.incrementAndGet() == parties) {
                bytes = usedHeapAfterGc() - baseline;
            }
            barrier.sync();
        }
    }

    /** Heap in use after full collections, once it has settled. */
    public static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long now = memory.getHeapMemoryUsage().getUsed();
            if (Math.abs(now - used) < 64 * 1024 && i >= 2) {
                return now;
            }
            used = now;
        }
        return used;
    }
}
