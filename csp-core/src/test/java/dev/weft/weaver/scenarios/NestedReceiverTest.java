package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A value copied from a local onto the operand stack, the local dead afterwards, under a pausable call whose
 * arguments pause first: {@code b.apply(a.apply(x, in), in)}, {@code op.apply(in.next(), in)}. Each scenario
 * lives in a nested class of its own, so that a class failing verification takes only its own test down.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NestedReceiverTest {

    @FunctionalInterface
    interface LongOp {
        @Pausable
        long apply(long x, Source in);
    }

    static final class Adder {
        private final long k;

        Adder(long k) {
            this.k = k;
        }

        @Pausable
        long add(long x, Source in) {
            return x + k * in.next();
        }
    }

    static final class ReceiverThenPausableArgument {
        @Pausable
        static long run(Source in) {
            LongOp op = (x, s) -> x * 10 + s.next();
            return op.apply(in.next(), in);
        }
    }

    @Test
    void lambdaReceiverFromDeadLocalUnderPausableArgument() {
        check(new int[] {2, 3}, 23L, ReceiverThenPausableArgument::run);
    }

    static final class NestedLambdaCalls {
        @Pausable
        static long run(Source in) {
            LongOp a = (x, s) -> x + s.next();
            LongOp b = (x, s) -> x * s.next();
            return b.apply(a.apply(5, in), in);
        }
    }

    @Test
    void nestedCallsOnLambdaReceiversFromDeadLocals() {
        check(new int[] {2, 3}, (5 + 2) * 3L, NestedLambdaCalls::run);
    }

    static final class NestedWovenCalls {
        @Pausable
        static long run(Source in) {
            Adder a = new Adder(10);
            Adder b = new Adder(100);
            return b.add(a.add(1, in), in);
        }
    }

    @Test
    void nestedCallsOnWovenReceiversFromDeadLocals() {
        check(new int[] {2, 3}, 1 + 10 * 2 + 100 * 3L, NestedWovenCalls::run);
    }

    static final class DeadArgument {
        @Pausable
        static long add3(long a, long b, Source in) {
            return a * 1000 + b * 10 + in.next();
        }

        @Pausable
        static long run(Source in) {
            long a = in.nextLong();
            return add3(a, in.next(), in);
        }
    }

    @Test
    void argumentFromDeadLocalUnderPausableArgument() {
        check(new int[] {1, 2, 3}, Source.wide(1) * 1000 + 2 * 10 + 3, DeadArgument::run);
    }

    static final class DeadValueBelowCall {
        @Pausable
        static long run(Source in) {
            long a = in.nextLong();
            Adder b = new Adder(3);
            long r = a + b.add(in.next(), in);
            return r + b.k;
        }
    }

    @Test
    void valueFromDeadLocalBelowPausableCallWithPausableArgument() {
        check(new int[] {1, 2, 3}, Source.wide(1) + 2 + 3 * 3 + 3, DeadValueBelowCall::run);
    }

    static final class DeadLocalInstanceArgument {
        @Pausable
        static long run(Source in) {
            Adder b = new Adder(7);
            long a = in.nextLong();
            long r = b.add(a + 0, in) + b.add(a, in.next() > 0 ? in : in);
            return r + b.k;
        }
    }

    @Test
    void argumentFromDeadLocalOfInstanceCallUnderPausableArgument() {
        long a = Source.wide(1);
        check(new int[] {1, 2, 3, 4}, (a + 7 * 2) + (a + 7 * 4) + 7, DeadLocalInstanceArgument::run);
    }

    static final class ThisAsLastReceiver {
        private final int k;
        private final LongOp op = (x, s) -> x - s.next();

        ThisAsLastReceiver(int k) {
            this.k = k;
        }

        @Pausable
        long scaled(long x, Source in) {
            return x * k + in.next();
        }

        @Pausable
        long viaThis(Source in) {
            return scaled(in.next(), in);
        }

        @Pausable
        long viaField(Source in) {
            return op.apply(in.next(), in);
        }
    }

    @Test
    void thisAsReceiverForTheLastTimeUnderPausableArgument() {
        check(new int[] {2, 3}, 2 * 5L + 3, in -> new ThisAsLastReceiver(5).viaThis(in));
    }

    @Test
    void fieldAsReceiverUnderPausableArgument() {
        check(new int[] {9, 4}, 5L, in -> new ThisAsLastReceiver(5).viaField(in));
    }

    static final class LiveReceiver {
        @Pausable
        static long run(Source in) {
            LongOp op = (x, s) -> x * 10 + s.next();
            long r = op.apply(in.next(), in);
            return op == null ? -1 : r;
        }
    }

    @Test
    void lambdaReceiverStillLiveAfterTheCall() {
        check(new int[] {2, 3}, 23L, LiveReceiver::run);
    }
}
