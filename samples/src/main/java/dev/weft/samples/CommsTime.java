package dev.weft.samples;

import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;

/**
 * The classic CSP micro-benchmark: a ring of prefix, delta and successor processes feeding a consumer.
 * Each cycle is four communications; the consumer reports nanoseconds per communication.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dsample=dev.weft.samples.CommsTime [-Dexec.args="cycles runs"]}
 */
public final class CommsTime {
    private CommsTime() {
    }

    /** Runs CommsTime: {@code args[0]} cycles per run (default 1,000,000), {@code args[1]} runs (default 5). */
    public static void main(String[] args) {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            for (int r = 1; r <= runs; r++) {
                double ns = run(scheduler, cycles);
                System.out.printf("CommsTime run %d: %.1f ns per communication (%d cycles, 1 worker)%n", r, ns, cycles);
            }
        }
    }

    /** One run of {@code cycles} cycles; returns nanoseconds per communication. */
    public static double run(Scheduler scheduler, int cycles) {
        long[] elapsed = new long[1];
        Weft.run(scheduler, () -> {
            One2OneChannel<Integer> a = Channel.one2one();
            One2OneChannel<Integer> b = Channel.one2one();
            One2OneChannel<Integer> c = Channel.one2one();
            One2OneChannel<Integer> d = Channel.one2one();
            Parallel.run(
                    () -> prefix(0, c.in(), a.out()),
                    () -> delta(a.in(), b.out(), d.out()),
                    () -> successor(b.in(), c.out()),
                    () -> elapsed[0] = consume(d.in(), cycles));
        });
        return elapsed[0] / (4.0 * cycles);
    }

    /** Writes {@code first}, then copies {@code in} to {@code out}; on poison, poisons both. */
    @Pausable
    public static void prefix(int first, ChannelInput<Integer> in, ChannelOutput<Integer> out) {
        try {
            out.write(first);
            for (;;) {
                out.write(in.read());
            }
        } catch (PoisonException e) {
            in.poison();
            out.poison();
        }
    }

    /** Copies each value of {@code in} to both outputs, in turn; on poison, poisons all three. */
    @Pausable
    public static void delta(ChannelInput<Integer> in, ChannelOutput<Integer> out0, ChannelOutput<Integer> out1) {
        try {
            for (;;) {
                Integer v = in.read();
                out0.write(v);
                out1.write(v);
            }
        } catch (PoisonException e) {
            in.poison();
            out0.poison();
            out1.poison();
        }
    }

    /** Copies {@code in} to {@code out}, adding one; on poison, poisons both. */
    @Pausable
    public static void successor(ChannelInput<Integer> in, ChannelOutput<Integer> out) {
        try {
            for (;;) {
                out.write(in.read() + 1);
            }
        } catch (PoisonException e) {
            in.poison();
            out.poison();
        }
    }

    /** Reads {@code cycles} values after a warm-up cycle, then poisons the ring; returns the time taken. */
    @Pausable
    public static long consume(ChannelInput<Integer> in, int cycles) {
        in.read();
        long start = System.nanoTime();
        for (int i = 0; i < cycles; i++) {
            in.read();
        }
        long time = System.nanoTime() - start;
        in.poison();
        return time;
    }
}
