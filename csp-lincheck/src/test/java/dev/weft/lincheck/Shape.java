package dev.weft.lincheck;

import dev.weft.csp.AltingChannelInput;
import dev.weft.csp.AltingChannelOutput;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.One2AnyChannel;
import dev.weft.csp.One2OneChannel;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The channel that a {@link ChannelOperations} class checks: its kind and its capacity (0: synchronous). Read by
 * the operations, which make the channel, and by {@link BalancedScenarios}, which gives an unshared end to one
 * thread only.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface Shape {
    Kind kind();

    int capacity();

    /** The four kinds of local channel, by which of their ends several threads may use at once. */
    enum Kind {
        ONE2ONE(false, false), ANY2ONE(true, false), ONE2ANY(false, true), ANY2ANY(true, true);

        final boolean sharedOutput;
        final boolean sharedInput;

        Kind(boolean sharedOutput, boolean sharedInput) {
            this.sharedOutput = sharedOutput;
            this.sharedInput = sharedInput;
        }

        /** A new channel of this kind: its two ends, each usable as a guard. */
        Ends make(int capacity) {
            switch (this) {
                case ONE2ONE:
                    One2OneChannel<Integer> one2one = Channel.one2one(capacity);
                    return new Ends(one2one.in(), one2one.out());
                case ANY2ONE:
                    Any2OneChannel<Integer> any2one = Channel.any2one(capacity);
                    return new Ends(any2one.in(), any2one.out());
                case ONE2ANY:
                    One2AnyChannel<Integer> one2any = Channel.one2any(capacity);
                    return new Ends(one2any.in(), one2any.out());
                default:
                    Any2AnyChannel<Integer> any2any = Channel.any2any(capacity);
                    return new Ends(any2any.in(), any2any.out());
            }
        }
    }

    /** The two ends of one channel. */
    record Ends(AltingChannelInput<Integer> in, AltingChannelOutput<Integer> out) {
    }
}
