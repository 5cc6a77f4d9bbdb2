package dev.weft.bench.sched;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The token ring: {@code size} processes in a ring of synchronous channels pass {@code tokens} tokens
 * round, all put in by element 0; each token makes {@code hops} hops, then leaves the ring; the last to
 * leave poisons it.
 */
final class TokenRing {
    private TokenRing() {
    }

    /** A token and the hops it has left. */
    static final class Token {
        int hopsLeft;

        Token(int hops) {
            this.hopsLeft = hops;
        }
    }

    /** Runs the ring once; returns the hops made. */
    static long run(Scheduler s, int size, int tokens, int hopsPerToken) {
        AtomicInteger left = new AtomicInteger(tokens);
        Weft.run(s, () -> {
            @SuppressWarnings("unchecked")
            One2OneChannel<Token>[] links = new One2OneChannel[size];
            for (int i = 0; i < size; i++) {
                links[i] = Channel.one2one();
            }
            CSProcess[] ps = new CSProcess[size];
            for (int i = 0; i < size; i++) {
                ChannelInput<Token> in = links[i].in();
                ChannelOutput<Token> out = links[(i + 1) % size].out();
                int inject = i == 0 ? tokens : 0;
                ps[i] = () -> element(in, out, left, inject, hopsPerToken);
            }
            Parallel.run(ps);
        });
        return (long) tokens * hopsPerToken;
    }

    @Pausable
    private static void element(ChannelInput<Token> in, ChannelOutput<Token> out, AtomicInteger left, int inject,
            int hops) {
        try {
            for (int t = 0; t < inject; t++) {
                out.write(new Token(hops)); // the ring holds up to one token per element: room for these
            }
            for (;;) {
                Token t = in.read();
                if (--t.hopsLeft > 0) {
                    out.write(t);
                } else if (left.decrementAndGet() == 0) {
                    in.poison();
                    out.poison();
                    return;
                }
            }
        } catch (PoisonException e) {
            in.poison();
            out.poison();
        }
    }
}
