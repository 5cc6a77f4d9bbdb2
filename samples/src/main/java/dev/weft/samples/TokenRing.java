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
 * A ring of processes joined by synchronous channels, with one or more tokens travelling round it. Element 0
 * injects the tokens and counts round trips; every other element passes on what it reads. When the last
 * round trip is in, element 0 poisons the ring and every element ends.
 *
 * <p>Run: {@code java -cp samples/target/classes:csp-core/target/classes dev.weft.samples.TokenRing
 * [elements tokens roundTrips workers]} (defaults 256 1 1024 1; with 64 tokens the ring is busy at 64 places).
 */
public final class TokenRing {
    private TokenRing() {
    }

    /** What one run measured. */
    public static final class Result {
        /** Round trips counted by element 0. */
        public final int roundTrips;
        /** Hops made by all tokens together: round trips times elements. */
        public final long hops;
        /** Wall-clock time of the run, in nanoseconds. */
        public final long nanos;

        Result(int roundTrips, long hops, long nanos) {
            this.roundTrips = roundTrips;
            this.hops = hops;
            this.nanos = nanos;
        }

        /** Nanoseconds per hop (one channel communication). */
        public double nanosPerHop() {
            return (double) nanos / hops;
        }
    }

    /** Runs the ring: {@code elements tokens roundTrips workers}. */
    public static void main(String[] args) {
        int elements = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int roundTrips = args.length > 2 ? Integer.parseInt(args[2]) : 1024;
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        try (Scheduler scheduler = Scheduler.create(workers)) {
            run(scheduler, elements, tokens, roundTrips); // warm-up
            Result r = run(scheduler, elements, tokens, roundTrips);
            System.out.printf("TokenRing: %.1f ns per hop (%d elements, %d token%s, %d round trips, %d worker%s)%n",
                    r.nanosPerHop(), elements, tokens, tokens == 1 ? "" : "s", r.roundTrips, workers,
                    workers == 1 ? "" : "s");
        }
    }

    /**
     * One run: {@code tokens} tokens go round a ring of {@code elements} processes until element 0 has seen
     * {@code roundTrips} of them come back (tokens share the round trips, so the hop count does not depend on
     * the number of tokens).
     *
     * @throws IllegalArgumentException unless 2 &lt;= elements, 1 &lt;= tokens &lt; elements and tokens &lt;= roundTrips
     */
    public static Result run(Scheduler scheduler, int elements, int tokens, int roundTrips) {
        if (elements < 2 || tokens < 1 || tokens >= elements || roundTrips < tokens) {
            throw new IllegalArgumentException("need 2 <= elements, 1 <= tokens < elements, tokens <= roundTrips");
        }
        int[] counted = new int[1];
        long[] nanos = new long[1];
        Weft.run(scheduler, () -> {
            @SuppressWarnings("unchecked")
            One2OneChannel<Integer>[] links = new One2OneChannel[elements];
            for (int i = 0; i < elements; i++) {
                links[i] = Channel.one2one();
            }
            long start = System.nanoTime();
            Parallel.forRange(0, elements, i -> {
                ChannelInput<Integer> in = links[i].in();
                ChannelOutput<Integer> out = links[(i + 1) % elements].out();
                if (i == 0) {
                    counted[0] = head(in, out, tokens, roundTrips);
                } else {
                    element(in, out);
                }
            });
            nanos[0] = System.nanoTime() - start;
        });
        return new Result(counted[0], (long) counted[0] * elements, nanos[0]);
    }

    /** Element 0: injects the tokens, counts them as they come back, then poisons the ring. */
    @Pausable
    static int head(ChannelInput<Integer> in, ChannelOutput<Integer> out, int tokens, int roundTrips) {
        for (int t = 0; t < tokens; t++) {
            out.write(t);
        }
        int inFlight = tokens;
        int arrived = 0;
        while (inFlight > 0) {
            Integer token = in.read();
            inFlight--;
            arrived++;
            if (arrived + inFlight < roundTrips) {
                out.write(token);
                inFlight++;
            }
        }
        out.poison();
        in.poison();
        return arrived;
    }

    /** Any other element: passes every token on until poisoned. */
    @Pausable
    static void element(ChannelInput<Integer> in, ChannelOutput<Integer> out) {
        try {
            for (;;) {
                out.write(in.read());
            }
        } catch (PoisonException e) {
            in.poison();
            out.poison();
        }
    }
}
