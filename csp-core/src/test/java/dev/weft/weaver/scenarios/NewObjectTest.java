package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pausable calls among the arguments of {@code new}: the weaver must hoist them, because the verifier forbids
 * jumping between {@code new} and {@code <init>}.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NewObjectTest {

    static final class Bar {
        final int v;

        Bar(int v) {
            this.v = v;
        }

        @Override
        public String toString() {
            return "Bar" + v;
        }
    }

    static final class Foo {
        final String text;

        Foo(int v) {
            text = "Foo(" + v + ")";
        }

        Foo(long a, Bar b, double c) {
            text = "Foo(" + a + "," + b + "," + c + ")";
        }

        Foo(Bar a, Bar b) {
            text = "Foo(" + a + "," + b + ")";
        }

        Foo(String a, int... rest) {
            text = "Foo(" + a + "," + Arrays.toString(rest) + ")";
        }

        int plus(int x) {
            return text.length() + x;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    @Pausable
    static String newWithPausableArgument(Source in) {
        return new Foo(in.next()).toString();
    }

    @Test
    void newFooOfRead() {
        check(new int[] {42}, "Foo(42)", NewObjectTest::newWithPausableArgument);
    }

    @Pausable
    static String nestedNew(Source in) {
        long a = in.nextLong();
        double b = 0.25;
        Foo f = new Foo(a, new Bar(in.next()), b);
        Foo g = new Foo(new Bar(in.next()), new Bar(in.next()));
        Foo h = new Foo(a + 1, new Bar(in.next() + in.next()), in.nextDouble());
        return f + ";" + g + ";" + h;
    }

    @Test
    void newWithNestedNewOfRead() {
        long a = Source.wide(1);
        String expected = "Foo(" + a + ",Bar2,0.25);Foo(Bar3,Bar4);Foo(" + (a + 1) + ",Bar11," + Source.fraction(7)
                + ")";
        check(new int[] {1, 2, 3, 4, 5, 6, 7}, expected, NewObjectTest::nestedNew);
    }

    @Pausable
    static String newArrays(Source in) {
        int[] a = new int[in.next()];
        long[][] b = new long[in.next()][in.next()];
        String[] c = new String[in.next() + 1];
        int[] d = {in.next(), 7, in.next()};
        Object[][] e = {{in.nextString()}, {}};
        return a.length + "," + b.length + "x" + b[0].length + "," + c.length + "," + Arrays.toString(d) + ","
                + Arrays.deepToString(e);
    }

    @Test
    void newArrayOfReadLength() {
        String expected = "3,2x5,5," + Arrays.toString(new int[] {8, 7, 9}) + ",[[s10], []]";
        check(new int[] {3, 2, 5, 4, 8, 9, 10}, expected, NewObjectTest::newArrays);
    }

    @Pausable
    static String builderChain(Source in) {
        String s = new StringBuilder().append(in.next()).append('-').append(in.nextString()).toString();
        StringBuilder t = new StringBuilder(in.nextString());
        t.append(new StringBuilder(in.nextString()).reverse());
        return s + "|" + t;
    }

    @Test
    void newStringBuilderAppendRead() {
        check(new int[] {1, 2, 3, 45}, "1-s2|s354s", NewObjectTest::builderChain);
    }

    @Pausable
    static String newWithVarargs(Source in) {
        Foo f = new Foo(in.nextString(), in.next(), 5, in.next());
        return f.toString();
    }

    @Test
    void newWithPausableVarargs() {
        check(new int[] {1, 2, 3}, "Foo(s1,[2, 5, 3])", NewObjectTest::newWithVarargs);
    }

    @Pausable
    static int methodOnNewObject(Source in) {
        return new Foo(in.next()).plus(in.next());
    }

    @Test
    void callOnNewObjectWithPausableArgument() {
        check(new int[] {123, 10}, "Foo(123)".length() + 10, NewObjectTest::methodOnNewObject);
    }

    @Pausable
    static String newInLoopAndTernary(Source in) {
        List<Bar> list = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            list.add(i % 2 == 0 ? new Bar(in.next()) : new Bar(-i));
        }
        list.add(new Bar(list.size() + in.next()));
        return list.toString();
    }

    @Test
    void newInsideLoopAndTernary() {
        check(new int[] {10, 20, 30}, "[Bar10, Bar-1, Bar20, Bar-3, Bar34]", NewObjectTest::newInLoopAndTernary);
    }

    /** javac spills {@code new Foo} and {@code new Bar} into locals here: a try needs an empty operand stack. */
    @Pausable
    static String newOfSwitchExpressionWithTry(Source in, int k) {
        Foo f = new Foo(new Bar(k), new Bar(switch (k) {
            case 0 -> -1;
            default -> {
                try {
                    int v = in.next();
                    if (v < 0) {
                        throw new IllegalArgumentException();
                    }
                    yield v;
                } catch (IllegalArgumentException e) {
                    yield 100 + in.next();
                }
            }
        }));
        return f + "/" + new Bar(in.next());
    }

    @Test
    void newWithSwitchExpressionPausingInTryAndCatch() {
        check(new int[] {5}, "Foo(Bar0,Bar-1)/Bar5", in -> newOfSwitchExpressionWithTry(in, 0));
        check(new int[] {7, 8}, "Foo(Bar2,Bar7)/Bar8", in -> newOfSwitchExpressionWithTry(in, 2));
        check(new int[] {-7, 1, 9}, "Foo(Bar3,Bar101)/Bar9", in -> newOfSwitchExpressionWithTry(in, 3));
    }

    /** Spilled news in a conditional, around a finally, and two spilled news nested in one another. */
    @Pausable
    static String spilledNewsInTernaryFinallyAndNested(Source in, int k) {
        int[] finallies = {0};
        Object o = k > 1 ? new Foo(new Bar(1), new Bar(switch (k) {
            case 2 -> {
                try {
                    yield in.next();
                } finally {
                    finallies[0]++;
                }
            }
            default -> 0;
        })) : null;
        List<Bar> l = new ArrayList<>(List.of(new Bar(switch (k) {
            default -> {
                try {
                    yield in.next();
                } catch (IllegalStateException e) {
                    yield 0;
                }
            }
        })));
        return o + " " + l + " " + finallies[0];
    }

    @Test
    void spilledNewsInConditionalFinallyAndNested() {
        check(new int[] {5, 6}, "Foo(Bar1,Bar5) [Bar6] 1", in -> spilledNewsInTernaryFinallyAndNested(in, 2));
        check(new int[] {7}, "null [Bar7] 0", in -> spilledNewsInTernaryFinallyAndNested(in, 0));
    }

    abstract static class Base {
        final int seed;

        Base(int seed) {
            this.seed = seed;
        }

        abstract int get();
    }

    @Pausable
    static int anonymousWithPausableArgument(Source in) {
        int k = 3;
        Base b = new Base(in.next()) {
            @Override
            int get() {
                return seed * k;
            }
        };
        return b.get() + in.next();
    }

    @Test
    void anonymousSubclassWithPausableConstructorArgument() {
        check(new int[] {7, 100}, 7 * 3 + 100, NewObjectTest::anonymousWithPausableArgument);
    }
}
