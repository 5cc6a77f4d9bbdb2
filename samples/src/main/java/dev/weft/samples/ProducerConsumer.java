package dev.weft.samples;

import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Producers and consumers sharing one buffered any-to-any channel. Each producer sends the numbers
 * 1..perProducer; once all have finished, one end marker (0) per consumer follows, and each consumer adds up
 * what it takes until it meets one. (Poison would be wrong here: it is immediate and discards what is still
 * buffered.) The total tells whether every item arrived exactly once.
 *
 * <p>Run: {@code java -cp samples/target/classes:csp-core/target/classes dev.weft.samples.ProducerConsumer
 * [producers consumers perProducer capacity workers]} (defaults 4 4 250000 64 2).
 */
public final class ProducerConsumer {
    private static final int END = 0;

    private ProducerConsumer() {
    }

    /** What one run measured. */
    public static final class Result {
        /** Items consumed. */
        public final long items;
        /** Sum of the items consumed. */
        public final long sum;
        /** Wall-clock time of the run, in nanoseconds. */
        public final long nanos;

        Result(long items, long sum, long nanos) {
            this.items = items;
            this.sum = sum;
            this.nanos = nanos;
        }

        /** The sum every run must produce: each producer sends 1..perProducer. */
        public static long expectedSum(int producers, int perProducer) {
            return (long) producers * perProducer * (perProducer + 1L) / 2;
        }
    }

    /** Runs producers and consumers: {@code producers consumers perProducer capacity workers}. */
    public static void main(String[] args) {
        int producers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int consumers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int perProducer = args.length > 2 ? Integer.parseInt(args[2]) : 250_000;
        int capacity = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        int workers = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        try (Scheduler scheduler = Scheduler.create(workers)) {
            run(scheduler, producers, consumers, perProducer / 10, capacity); // warm-up
            Result r = run(scheduler, producers, consumers, perProducer, capacity);
            boolean ok = r.sum == Result.expectedSum(producers, perProducer);
            System.out.printf("ProducerConsumer: %,.0f items per second, %.1f ns per item "
                            + "(%d producers, %d consumers, buffer %d, %d workers; sum %s)%n",
                    r.items * 1e9 / r.nanos, (double) r.nanos / r.items, producers, consumers, capacity, workers,
                    ok ? "correct" : "WRONG");
        }
    }

    /** One run: every producer sends 1..perProducer through a channel of the given capacity. */
    public static Result run(Scheduler scheduler, int producers, int consumers, int perProducer, int capacity) {
        AtomicLong items = new AtomicLong();
        AtomicLong sum = new AtomicLong();
        long[] nanos = new long[1];
        Weft.run(scheduler, () -> {
            Any2AnyChannel<Integer> channel = Channel.any2any(capacity);
            long start = System.nanoTime();
            Parallel.run(
                    () -> {
                        Parallel.forRange(0, producers, p -> produce(channel.out(), perProducer));
                        for (int c = 0; c < consumers; c++) {
                            channel.out().write(END);
                        }
                    },
                    () -> Parallel.forRange(0, consumers, c -> consume(channel.in(), items, sum)));
            nanos[0] = System.nanoTime() - start;
        });
        return new Result(items.get(), sum.get(), nanos[0]);
    }

    @Pausable
    static void produce(ChannelOutput<Integer> out, int perProducer) {
        for (int i = 1; i <= perProducer; i++) {
            out.write(i);
        }
    }

    @Pausable
    static void consume(ChannelInput<Integer> in, AtomicLong items, AtomicLong sum) {
        long n = 0;
        long s = 0;
        for (int v = in.read(); v != END; v = in.read()) {
            s += v;
            n++;
        }
        items.addAndGet(n);
        sum.addAndGet(s);
    }
}
