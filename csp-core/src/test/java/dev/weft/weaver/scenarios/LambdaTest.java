package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.IntProcess;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Lambdas and method references whose functional interface is pausable. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LambdaTest {

    /** The test's own pausable functional interface. */
    @FunctionalInterface
    interface LongOp {
        @Pausable
        long apply(long x, Source in);
    }

    /** A pausable functional interface taking the receiver first (for unbound references). */
    @FunctionalInterface
    interface OnCounter {
        @Pausable
        int apply(Counter c, Source in);
    }

    @FunctionalInterface
    interface Fn<T> {
        @Pausable
        T apply(T t, Source in);
    }

    /** Not pausable: it only builds pausable lambdas. */
    @FunctionalInterface
    interface Factory {
        Scenario<Integer> make(int k);
    }

    static final class Counter {
        int count;

        Counter(int count) {
            this.count = count;
        }

        @Pausable
        int readAndAdd(Source in) {
            count += in.next();
            return count;
        }
    }

    @Pausable
    static long timesRead(long x, Source in) {
        return x * in.next();
    }

    @Pausable
    static <T> T keep(T t, Source in) {
        in.next();
        return t;
    }

    @Pausable
    static String spawnedLambda(Source in) {
        int i = in.next();
        long l = 1L << 42;
        double d = 0.5;
        String s = "cap";
        long[] out = new long[1];
        Fiber child = Weft.spawn(() -> out[0] = i + l + (long) (d * in.next()) + s.length());
        child.join();
        CSProcess direct = () -> out[0] += in.nextLong();
        direct.run();
        return out[0] + s;
    }

    @Test
    void csProcessLambdaCapturingLocals() {
        long expected = 3 + (1L << 42) + (long) (0.5 * 10) + 3 + Source.wide(7);
        check(new int[] {3, 10, 7}, expected + "cap", LambdaTest::spawnedLambda);
    }

    @Pausable
    static String intProcessLambda(Source in) {
        int[] results = new int[4];
        int scale = in.next();
        IntProcess p = i -> results[i] = in.next() * scale + i;
        for (int k = 0; k < results.length; k++) {
            p.run(k);
        }
        return java.util.Arrays.toString(results);
    }

    @Test
    void intProcessLambda() {
        check(new int[] {10, 1, 2, 3, 4}, "[10, 21, 32, 43]", LambdaTest::intProcessLambda);
    }

    @Pausable
    static long ownInterfaceLambdas(Source in) {
        long big = in.nextLong();
        double ratio = in.nextDouble();
        LongOp plus = (x, s) -> x + s.next();
        LongOp capturing = (x, s) -> x + big + (long) (ratio * s.next());
        long acc = 1;
        acc = plus.apply(acc, in);
        acc = capturing.apply(acc, in);
        return acc;
    }

    @Test
    void ownFunctionalInterfaceLambdaCapturingLongAndDouble() {
        long expected = 1 + 5 + Source.wide(3) + (long) (Source.fraction(4) * 6);
        check(new int[] {3, 4, 5, 6}, expected, LambdaTest::ownInterfaceLambdas);
    }

    static final class WithThis {
        private long total;
        private final int factor;

        WithThis(int factor) {
            this.factor = factor;
        }

        @Pausable
        long addRead(long x, Source in) {
            total += x + in.next();
            return total;
        }

        @Pausable
        String run(Source in) {
            LongOp viaLambda = (x, s) -> {
                total += factor;
                return addRead(x * factor, s);
            };
            LongOp viaThisRef = this::addRead;
            long a = viaLambda.apply(2, in);
            long b = viaThisRef.apply(100, in);
            return a + "," + b + "," + total;
        }
    }

    @Test
    void lambdaCapturingThisAndThisMethodReference() {
        // total: +3 (factor), +6+1 = 10; then +100+2 = 112.
        check(new int[] {1, 2}, "10,112,112", in -> new WithThis(3).run(in));
    }

    @Pausable
    static long staticReference(Source in) {
        LongOp staticRef = LambdaTest::timesRead;
        return staticRef.apply(7, in);
    }

    @Test
    void staticMethodReference() {
        check(new int[] {6}, 42L, LambdaTest::staticReference);
    }

    @Pausable
    static String boundReference(Source in) {
        Counter c = new Counter(10);
        Scenario<Integer> bound = c::readAndAdd;
        int b = bound.run(in);
        return b + "," + c.count;
    }

    @Test
    void boundMethodReference() {
        check(new int[] {5}, "15,15", LambdaTest::boundReference);
    }

    @Pausable
    static String unboundReference(Source in) {
        Counter c = new Counter(10);
        OnCounter unbound = Counter::readAndAdd;
        int d = unbound.apply(c, in);
        return d + "," + c.count;
    }

    @Test
    void unboundMethodReferenceTakingTheReceiver() {
        check(new int[] {4}, "14,14", LambdaTest::unboundReference);
    }

    @Pausable
    static String genericReference(Source in) {
        Fn<String> generic = LambdaTest::keep;
        return generic.apply("kept", in);
    }

    @Test
    void genericMethodReference() {
        check(new int[] {0}, "kept", LambdaTest::genericReference);
    }

    @Pausable
    static long plusRead(long x, Source in) {
        return x + in.next();
    }

    @Pausable
    static String unboxingReference(Source in) {
        Fn<Long> adapted = LambdaTest::plusRead;
        Long r = adapted.apply(100L, in);
        return "r" + r;
    }

    @Test
    void methodReferenceThatUnboxesAnArgument() {
        check(new int[] {5}, "r105", LambdaTest::unboxingReference);
    }

    static LongOp timesOp(long k) {
        return (x, s) -> x * k + s.next();
    }

    @Pausable
    static long receiverOnlyOnStack(Source in) {
        LongOp[] ops = {(x, s) -> x + s.next(), LambdaTest::timesRead};
        long acc = 1;
        for (int i = 0; i < ops.length; i++) {
            acc = ops[i].apply(acc, in);
        }
        acc = timesOp(3).apply(acc, in);
        return acc;
    }

    @Test
    void lambdaReceiverOnlyOnTheOperandStack() {
        check(new int[] {4, 6, 7}, (1 + 4) * 6L * 3 + 7, LambdaTest::receiverOnlyOnStack);
    }

    /** A pausable functional interface with a pausable default method. */
    @FunctionalInterface
    interface Twice {
        @Pausable
        long once(long x, Source in);

        @Pausable
        default long twice(long x, Source in) {
            long first = once(x, in);
            return once(first, in);
        }
    }

    @Test
    void pausableDefaultMethodOfLambda() {
        check(new int[] {3, 4}, (10 * 3L) * 4, in -> {
            Twice t = (x, s) -> x * s.next();
            return t.twice(10, in);
        });
    }

    /** Re-declares the generic method with a concrete type: lambdas need a bridge (altMetafactory). */
    @FunctionalInterface
    interface TextFn extends Fn<String> {
        @Override
        @Pausable
        String apply(String t, Source in);
    }

    @Pausable
    static String throughGenericSuper(Fn<String> f, Source in) {
        return f.apply("g", in);
    }

    @Test
    void lambdaNeedingABridgeMethod() {
        check(new int[] {1, 2}, "a1|g2", in -> {
            TextFn f = (t, s) -> t + s.next();
            return f.apply("a", in) + "|" + throughGenericSuper(f, in);
        });
    }

    @Test
    void serializableAndIntersectionLambdas() {
        check(new int[] {5, 6}, 5L + 6 * 2, in -> {
            LongOp a = (LongOp & java.io.Serializable) (x, s) -> x + s.next();
            LongOp b = (LongOp & Cloneable) (x, s) -> x + s.next() * 2;
            long first = a.apply(0, in);
            return b.apply(first, in);
        });
    }

    static final LongOp STATIC_OP = (x, s) -> x - s.next();

    interface WithLambdaInside {
        @Pausable
        static long make(Source in) {
            LongOp op = (x, s) -> x * 10 + s.next();
            long first = in.next();
            return op.apply(first, in);
        }
    }

    static final class MadeInConstructor {
        final LongOp op;
        final LongOp field = (x, s) -> x + 1000 + s.next();

        MadeInConstructor(long k) {
            op = (x, s) -> x * k + s.next();
        }
    }

    enum Kind {
        PLUS((x, s) -> x + s.next()),
        MINUS((x, s) -> x - s.next());

        final LongOp op;

        Kind(LongOp op) {
            this.op = op;
        }
    }

    @Test
    void lambdasCreatedInInitializersConstructorsAndInterfaces() {
        long expected = ((100 - 1 + 2 * 10 + 3) * 3L + 4 + 1000 + 5) + 6 - 7;
        check(new int[] {1, 2, 3, 4, 5, 6, 7}, expected, in -> {
            long a = STATIC_OP.apply(100, in);
            long b = WithLambdaInside.make(in);
            MadeInConstructor m = new MadeInConstructor(3);
            long c = m.field.apply(m.op.apply(a + b, in), in);
            return Kind.MINUS.op.apply(Kind.PLUS.op.apply(c, in), in);
        });
    }

    @Pausable
    static int nestedLambdas(Source in) {
        int base = in.next();
        Scenario<Integer> outer = s -> {
            int first = s.next();
            Scenario<Integer> inner = t -> first * 100 + t.next() + base;
            return inner.run(s) * 2;
        };
        return outer.run(in);
    }

    @Test
    void lambdaInsideLambda() {
        check(new int[] {1, 2, 3}, (2 * 100 + 3 + 1) * 2, LambdaTest::nestedLambdas);
    }

    @Test
    void pausableLambdaMadeByPlainLambda() {
        Factory f = k -> s -> s.next() * k;
        check(new int[] {7, 8}, 7 * 3 + 8 * 5, in -> f.make(3).run(in) + f.make(5).run(in));
    }

    static class Base {
        @Pausable
        int value(Source in) {
            return in.next() + 1;
        }
    }

    static final class Derived extends Base {
        @Override
        @Pausable
        int value(Source in) {
            return -1;
        }

        @Pausable
        int viaSuperReference(Source in) {
            Scenario<Integer> up = super::value;
            return up.run(in) * 10 + value(in);
        }
    }

    @Test
    void superMethodReference() {
        check(new int[] {4}, (4 + 1) * 10 - 1, in -> new Derived().viaSuperReference(in));
    }

    @Test
    void anonymousScenarioClass() {
        check(new int[] {2, 3}, 6L, new Scenario<Long>() {
            @Override
            @Pausable
            public Long run(Source in) {
                long a = in.next();
                return a * in.next();
            }
        });
    }
}
