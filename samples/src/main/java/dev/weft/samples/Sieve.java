package dev.weft.samples;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;

/**
 * The sieve of Eratosthenes as a growing pipeline: a generator sends 2, 3, 4, ... into a chain of filters.
 * The first number a filter reads is a prime: it reports it and starts a new filter behind itself, then passes
 * on only the numbers its prime does not divide. Once the wanted number of primes is in, the collector poisons
 * the report channel and the pipeline tears itself down.
 *
 * <p>Run: {@code java -cp samples/target/classes:csp-core/target/classes dev.weft.samples.Sieve [count]}
 * (default 10,000 primes).
 */
public final class Sieve {
    private Sieve() {
    }

    /** Prints how long the pipeline takes to find the first {@code args[0]} primes (default 10,000). */
    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            long start = System.nanoTime();
            int[] primes = primes(scheduler, count);
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("Sieve: the %,dth prime is %,d (%,d filter processes, %d ms)%n",
                    count, primes[count - 1], count, ms);
        }
    }

    /** The first {@code count} primes, found by a pipeline of {@code count} filter processes. */
    public static int[] primes(Scheduler scheduler, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, got " + count);
        }
        int[] primes = new int[count];
        Weft.run(scheduler, () -> {
            Any2OneChannel<Integer> found = Channel.any2one();
            One2OneChannel<Integer> numbers = Channel.one2one();
            Weft.spawn(() -> generate(numbers.out()));
            Weft.spawn(() -> filter(numbers.in(), found.out()));
            for (int i = 0; i < count; i++) {
                primes[i] = found.in().read();
            }
            found.in().poison();
        });
        return primes;
    }

    /** Writes 2, 3, 4, ... until poisoned. */
    @Pausable
    static void generate(ChannelOutput<Integer> out) {
        try {
            for (int n = 2; ; n++) {
                out.write(n);
            }
        } catch (PoisonException e) {
            out.poison();
        }
    }

    /** Reports its prime, starts the next filter, then drops the multiples of its prime. */
    @Pausable
    static void filter(ChannelInput<Integer> in, ChannelOutput<Integer> found) {
        try {
            int prime = in.read();
            found.write(prime);
            One2OneChannel<Integer> next = Channel.one2one();
            Weft.spawn(() -> filter(next.in(), found));
            ChannelOutput<Integer> out = next.out();
            try {
                for (;;) {
                    Integer n = in.read();
                    if (n % prime != 0) {
                        out.write(n);
                    }
                }
            } catch (PoisonException e) {
                out.poison();
                throw e;
            }
        } catch (PoisonException e) {
            in.poison();
        }
    }
}
