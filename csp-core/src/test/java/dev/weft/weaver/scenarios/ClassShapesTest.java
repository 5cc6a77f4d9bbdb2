package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pausable methods in every shape of class and method Java produces. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClassShapesTest {

    // ----------------------------------------------------------------- modifiers

    static class Modifiers {
        private final int base;

        Modifiers(int base) {
            this.base = base;
        }

        @Pausable
        private static int privateStatic(Source in) {
            return in.next() * 2;
        }

        @Pausable
        private int privateInstance(Source in) {
            return base + in.next();
        }

        @Pausable
        final long finalInstance(Source in) {
            return base * in.nextLong();
        }

        @Pausable
        protected String protectedInstance(Source in) {
            return "p" + privateInstance(in) + privateStatic(in);
        }
    }

    @Test
    void staticPrivateFinalAndProtectedMethods() {
        String expected = "p" + (3 + 5) + 12 + ":" + 3 * Source.wide(7);
        check(new int[] {5, 6, 7}, expected, in -> {
            Modifiers m = new Modifiers(3);
            return m.protectedInstance(in) + ":" + m.finalInstance(in);
        });
    }

    // ----------------------------------------------------------------- generics and bridges

    @Pausable
    static <T> T id(T t, Source in) {
        in.next();
        return t;
    }

    @Pausable
    static <T extends Comparable<T>> T max(T a, T b, Source in) {
        int bias = in.next();
        return bias > 0 ? a : a.compareTo(b) >= 0 ? a : b;
    }

    @Test
    void genericPausableMethods() {
        check(new int[] {1, 2, 0, 3}, "x|" + 42L + "|b|" + 3.5, in -> {
            String s = id("x", in);
            Long l = id(42L, in);
            String m = max("a", "b", in);
            Double d = max(3.5, 1.0, in);
            return s + "|" + l + "|" + m + "|" + d;
        });
    }

    interface Box<T> {
        @Pausable
        T get(Source in);
    }

    static final class IntBox implements Box<Integer> {
        private final int offset;

        IntBox(int offset) {
            this.offset = offset;
        }

        @Override
        @Pausable
        public Integer get(Source in) {
            return in.next() + offset;
        }
    }

    static final class TextBox implements Box<String> {
        @Override
        @Pausable
        public String get(Source in) {
            return in.nextString();
        }
    }

    @Test
    void genericInterfaceImplementedThroughBridge() {
        check(new int[] {1, 2, 3}, "[101, s2, 103]", in -> {
            List<Box<?>> boxes = List.of(new IntBox(100), new TextBox(), new IntBox(100));
            List<Object> out = new ArrayList<>();
            for (Box<?> b : boxes) {
                out.add(b.get(in));
            }
            return out.toString();
        });
    }

    @Test
    void bridgeTargetCalledDirectly() {
        check(new int[] {4}, 14, in -> new IntBox(10).get(in));
    }

    static class Maker {
        @Pausable
        Object make(Source in) {
            return in.next();
        }
    }

    static class StringMaker extends Maker {
        @Override
        @Pausable
        String make(Source in) {
            return "made" + in.next();
        }
    }

    @Test
    void covariantReturnBridge() {
        check(new int[] {1, 2, 3}, "1|made2|made3", in -> {
            Maker plain = new Maker();
            Maker viaBase = new StringMaker();
            StringMaker direct = new StringMaker();
            return plain.make(in) + "|" + viaBase.make(in) + "|" + direct.make(in).toString();
        });
    }

    // ----------------------------------------------------------------- interfaces and abstract classes

    interface Adder {
        @Pausable
        int base(Source in);

        @Pausable
        default int twice(Source in) {
            int first = base(in);
            return first * 100 + base(in);
        }

        @Pausable
        static int viaStatic(Adder a, Source in) {
            return a.twice(in) + a.base(in);
        }

        @Pausable
        default int withPrivate(Source in) {
            return hidden(in) * 3;
        }

        @Pausable
        private int hidden(Source in) {
            return base(in) + 1;
        }
    }

    static final class SimpleAdder implements Adder {
        @Override
        @Pausable
        public int base(Source in) {
            return in.next();
        }
    }

    @Test
    void defaultStaticAndPrivateInterfaceMethods() {
        check(new int[] {1, 2, 3, 4}, (102 + 3) + ":" + 15, in -> {
            Adder a = new SimpleAdder();
            return Adder.viaStatic(a, in) + ":" + a.withPrivate(in);
        });
    }

    abstract static class Op {
        @Pausable
        abstract long apply(Source in, long x);

        @Pausable
        long applyTwice(Source in, long x) {
            return apply(in, apply(in, x));
        }
    }

    static final class AddOp extends Op {
        @Override
        @Pausable
        long apply(Source in, long x) {
            return x + in.next();
        }
    }

    static final class MulOp extends Op {
        @Override
        @Pausable
        long apply(Source in, long x) {
            return x * in.nextLong();
        }
    }

    @Test
    void abstractPausableMethodAndOverrides() {
        long expected = ((((5 + 1) + 2) * Source.wide(3)) * Source.wide(4));
        check(new int[] {1, 2, 3, 4}, expected, in -> {
            Op[] ops = {new AddOp(), new MulOp()};
            long x = 5;
            for (Op op : ops) {
                x = op.applyTwice(in, x);
            }
            return x;
        });
    }

    interface Task {
        @Pausable
        int work(Source in);
    }

    abstract static class AbstractTask implements Task {
        @Pausable
        int twiceWork(Source in) {
            return work(in) * 1000 + work(in);
        }
    }

    static final class ConcreteTask extends AbstractTask {
        @Override
        @Pausable
        public int work(Source in) {
            return in.next() + 1;
        }
    }

    @Test
    void abstractClassInheritsPausableInterfaceMethod() {
        check(new int[] {4, 5, 6}, 5 * 1000 + 6 + 7, in -> {
            AbstractTask t = new ConcreteTask();
            return t.twiceWork(in) + t.work(in);
        });
    }

    static class Parent {
        @Pausable
        int value(Source in) {
            return in.next() + 1;
        }
    }

    static class Child extends Parent {
        @Override
        @Pausable
        int value(Source in) {
            long pad = 1L << 36;
            int fromParent = super.value(in);
            return (int) (fromParent * 10 + in.next() + (pad >> 36));
        }
    }

    static class GrandChild extends Child {
        @Override
        @Pausable
        int value(Source in) {
            return super.value(in) * 100;
        }
    }

    @Test
    void superCallsToPausableMethods() {
        check(new int[] {2, 3, 4, 5}, ((2 + 1) * 10 + 3 + 1) * 100 + ":" + ((4 + 1) * 10 + 5 + 1), in -> {
            Parent g = new GrandChild();
            Parent c = new Child();
            return g.value(in) + ":" + c.value(in);
        });
    }

    // ----------------------------------------------------------------- nested, local, anonymous

    static final class Outer {
        private int base;

        Outer(int base) {
            this.base = base;
        }

        @Pausable
        private int outerRead(Source in) {
            base += in.next();
            return base;
        }

        final class Inner {
            private final long scale;

            Inner(long scale) {
                this.scale = scale;
            }

            @Pausable
            long read(Source in) {
                int first = outerRead(in);
                return scale * first + outerRead(in) + base;
            }
        }

        @Pausable
        long viaInner(Source in) {
            Inner inner = new Inner(1000);
            return inner.read(in);
        }
    }

    @Test
    void innerClassCallsOuterPausableMethod() {
        // base: 1 -> 3 -> 7; 1000 * 3 + 7 + 7.
        check(new int[] {2, 4}, 3007L + 7, in -> new Outer(1).viaInner(in));
    }

    @Pausable
    static String localClass(Source in) {
        int captured = in.next();
        long wide = 1L << 40;
        class Accumulator {
            long total = captured;

            @Pausable
            void add(Source s) {
                total += s.next() + wide;
            }
        }
        Accumulator acc = new Accumulator();
        acc.add(in);
        acc.add(in);
        return acc.total + "," + captured;
    }

    @Test
    void localClassWithPausableMethod() {
        check(new int[] {5, 6, 7}, (5 + 6 + 7 + 2 * (1L << 40)) + ",5", ClassShapesTest::localClass);
    }

    @Pausable
    static long anonymousProcesses(Source in) {
        long[] result = new long[2];
        int k = in.next();
        CSProcess direct = new CSProcess() {
            @Override
            @Pausable
            public void run() {
                result[0] = k * (long) in.next();
            }
        };
        direct.run();
        Fiber child = Weft.spawn(new CSProcess() {
            private final long seed = result[0];

            @Override
            @Pausable
            public void run() {
                result[1] = seed + in.next();
            }
        });
        child.join();
        return result[0] * 1000 + result[1] + in.next();
    }

    @Test
    void anonymousCSProcessRunDirectlyAndSpawned() {
        check(new int[] {3, 4, 5, 6}, 12 * 1000 + (12 + 5) + 6L, ClassShapesTest::anonymousProcesses);
    }

    // ----------------------------------------------------------------- records, enums, varargs

    record Point(int x, long y) {
        @Pausable
        Point shift(Source in) {
            return new Point(x + in.next(), y * in.next());
        }

        @Pausable
        static Point read(Source in) {
            return new Point(in.next(), in.nextLong());
        }
    }

    @Test
    void recordWithPausableMethods() {
        Point expected = new Point(1 + 3, Source.wide(2) * 4);
        check(new int[] {1, 2, 3, 4}, expected, in -> Point.read(in).shift(in));
    }

    enum Step {
        ADD {
            @Override
            @Pausable
            long apply(Source in, long acc) {
                return acc + in.next();
            }
        },
        MUL {
            @Override
            @Pausable
            long apply(Source in, long acc) {
                long f = in.nextLong();
                return acc * f;
            }
        },
        NEG {
            @Override
            @Pausable
            long apply(Source in, long acc) {
                return -acc;
            }
        };

        @Pausable
        abstract long apply(Source in, long acc);

        @Pausable
        static long runAll(Source in) {
            long acc = 1;
            for (int k = 0; k < 4; k++) {
                Step s = values()[in.next()];
                acc = s.apply(in, acc);
            }
            return acc;
        }
    }

    @Test
    void enumWithConstantSpecificPausableBodies() {
        long expected = -((1 + 7) * Source.wide(9)) + 5;
        check(new int[] {0, 7, 1, 9, 2, 0, 5}, expected, Step::runAll);
    }

    @Pausable
    static long sumAll(Source in, int... extra) {
        long sum = in.next();
        for (int e : extra) {
            sum = sum * 10 + e;
        }
        return sum;
    }

    @Test
    void varargsPausableMethods() {
        // The varargs argument is read before sumAll reads its own value.
        check(new int[] {1, 2, 3, 4, 5}, "1:327:489:5", in -> {
            long none = sumAll(in);
            long some = sumAll(in, in.next(), 7);
            long viaArray = sumAll(in, new int[] {8, 9});
            return none + ":" + some + ":" + viaArray + ":" + in.next();
        });
    }

    static final class Holder<T> {
        private T value;

        Holder(T value) {
            this.value = value;
        }

        @Pausable
        T swap(Source in, T replacement) {
            in.next();
            T old = value;
            value = replacement;
            return old;
        }
    }

    @Test
    void genericClassWithPausableMethod() {
        check(new int[] {1, 2}, "a|b|c", in -> {
            Holder<String> h = new Holder<>("a");
            String first = h.swap(in, "b");
            String second = h.swap(in, "c");
            return first + "|" + second + "|" + h.value;
        });
    }
}
