package dev.weft.csp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Alternative;
import dev.weft.csp.AltingChannelOutput;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Schedulers;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Process networks from Go's test/chan: the concurrent prime sieve (a growing chain of filters, each spawned
 * by the last) and power-series arithmetic (streams copied to two consumers and combined by selecting).
 */
class PipelineConformanceTest {

    /** Go's sieve: the first 300 primes through a chain of 300 filter fibers, synchronous or buffered. */
    @Test
    @Timeout(30)
    void concurrentPrimeSieve() {
        Schedulers.onOneAndTwoWorkers(5, s -> {
            for (int capacity : new int[] {0, 4}) {
                List<Integer> primes = new ArrayList<>();
                Weft.run(s, () -> {
                    One2OneChannel<Integer> first = Channel.one2one(capacity);
                    Fiber generator = Weft.spawn(() -> {
                        try {
                            for (int i = 2;; i++) {
                                first.out().write(i);
                            }
                        } catch (dev.weft.csp.PoisonException end) {
                            // the sieve has its primes
                        }
                    });
                    ChannelInput<Integer> in = first.in();
                    List<One2OneChannel<Integer>> stages = new ArrayList<>();
                    stages.add(first);
                    for (int k = 0; k < 300; k++) {
                        int p = in.read();
                        primes.add(p);
                        One2OneChannel<Integer> next = Channel.one2one(capacity);
                        ChannelInput<Integer> from = in;
                        Weft.spawn(() -> filter(from, next.out(), p));
                        stages.add(next);
                        in = next.in();
                    }
                    for (One2OneChannel<Integer> c : stages) {
                        c.in().poison(); // ends the generator and every filter
                    }
                    generator.join();
                });
                assertEquals(primesUpTo(300), primes);
            }
        });
    }

    @Pausable
    private static void filter(ChannelInput<Integer> in, ChannelOutput<Integer> out, int prime) {
        try {
            for (;;) {
                int i = in.read();
                if (i % prime != 0) {
                    out.write(i);
                }
            }
        } catch (dev.weft.csp.PoisonException end) {
            in.poison();
            out.poison();
        }
    }

    private static List<Integer> primesUpTo(int count) {
        List<Integer> ps = new ArrayList<>();
        for (int n = 2; ps.size() < count; n++) {
            boolean prime = true;
            for (int p : ps) {
                if (n % p == 0) {
                    prime = false;
                    break;
                }
            }
            if (prime) {
                ps.add(n);
            }
        }
        return ps;
    }

    /**
     * powser's building blocks: a stream split to two consumers that read at different paces (the split
     * selects over its two outputs), then the two copies multiplied as power series. The series 1/(1-x) =
     * 1 + x + x^2 + ... squared is 1 + 2x + 3x^2 + ...
     */
    @Test
    @Timeout(30)
    void powerSeriesFromSplitStreams() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            int n = 40;
            long[] product = new long[n];
            Weft.run(s, () -> {
                One2OneChannel<Long> ones = Channel.one2one();
                One2OneChannel<Long> left = Channel.one2one();
                One2OneChannel<Long> right = Channel.one2one();
                Parallel.run(() -> {
                    for (int i = 0; i < n; i++) {
                        ones.out().write(1L);
                    }
                }, () -> split(ones.in(), left.out(), right.out(), n), () -> {
                    // the product's k-th coefficient needs k+1 terms of each copy: read them as they come
                    List<Long> a = new ArrayList<>();
                    List<Long> b = new ArrayList<>();
                    for (int k = 0; k < n; k++) {
                        if (k % 3 == 0) { // the copies are taken in either order: the split must not care
                            b.add(right.in().read());
                            a.add(left.in().read());
                        } else {
                            a.add(left.in().read());
                            b.add(right.in().read());
                        }
                        long c = 0;
                        for (int i = 0; i <= k; i++) {
                            c += a.get(i) * b.get(k - i);
                        }
                        product[k] = c;
                    }
                });
            });
            for (int k = 0; k < n; k++) {
                assertEquals(k + 1, product[k], "coefficient " + k);
            }
        });
    }

    /** Copies each value of {@code in} to both outputs, whichever consumer is ready first (powser's split). */
    @Pausable
    private static void split(ChannelInput<Long> in, AltingChannelOutput<Long> a, AltingChannelOutput<Long> b, int n) {
        Alternative alt = new Alternative(a, b);
        for (int i = 0; i < n; i++) {
            long v = in.read();
            int first = alt.select();
            (first == 0 ? a : b).write(v);
            (first == 0 ? b : a).write(v);
        }
    }
}
