package dev.weft.csp.conformance;

import dev.weft.csp.AltingChannelInput;
import dev.weft.csp.AltingChannelOutput;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.One2AnyChannel;
import dev.weft.csp.One2OneChannel;
import java.util.List;
import java.util.function.Function;

/** The two ends of a channel of any kind, so that one test covers all four kinds. */
final class Ends<T> {
    final String kind;
    final AltingChannelInput<T> in;
    final AltingChannelOutput<T> out;

    private Ends(String kind, AltingChannelInput<T> in, AltingChannelOutput<T> out) {
        this.kind = kind;
        this.in = in;
        this.out = out;
    }

    static <T> Ends<T> one2one(ChannelBuffer<T> b) {
        One2OneChannel<T> c = b == null ? Channel.one2one() : Channel.one2one(b);
        return new Ends<>("one2one", c.in(), c.out());
    }

    static <T> Ends<T> any2one(ChannelBuffer<T> b) {
        Any2OneChannel<T> c = b == null ? Channel.any2one() : Channel.any2one(b);
        return new Ends<>("any2one", c.in(), (AltingChannelOutput<T>) c.out());
    }

    static <T> Ends<T> one2any(ChannelBuffer<T> b) {
        One2AnyChannel<T> c = b == null ? Channel.one2any() : Channel.one2any(b);
        return new Ends<>("one2any", c.in(), c.out());
    }

    static <T> Ends<T> any2any(ChannelBuffer<T> b) {
        Any2AnyChannel<T> c = b == null ? Channel.any2any() : Channel.any2any(b);
        return new Ends<>("any2any", c.in(), c.out());
    }

    /** Every kind, synchronous (buffer null) or with a fresh buffer from {@code buffer}. */
    static <T> List<Ends<T>> allKinds(java.util.function.Supplier<ChannelBuffer<T>> buffer) {
        return List.of(one2one(buffer.get()), any2one(buffer.get()), one2any(buffer.get()), any2any(buffer.get()));
    }

    /** The kinds whose output many processes may share. */
    static <T> List<Function<ChannelBuffer<T>, Ends<T>>> sharedOutputKinds() {
        return List.of(Ends::any2one, Ends::any2any);
    }

    @Override
    public String toString() {
        return kind;
    }
}
