package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Loops, labelled jumps and switches around pausable calls. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ControlFlowTest {

    @Pausable
    static long forLoop(Source in) {
        long sum = 0;
        double weight = 1;
        for (int i = 0; i < 10; i++) {
            sum += (long) (in.next() * weight) + i;
            weight *= 1.5;
        }
        return sum;
    }

    @Test
    void forLoopWithPause() {
        int[] in = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
        long sum = 0;
        double weight = 1;
        for (int i = 0; i < 10; i++) {
            sum += (long) (in[i] * weight) + i;
            weight *= 1.5;
        }
        check(in, sum, ControlFlowTest::forLoop);
    }

    @Pausable
    static String whileAndDo(Source in) {
        int v;
        int count = 0;
        long product = 1;
        while ((v = in.next()) != 0) {
            product *= v;
            count++;
        }
        int w;
        int dos = 0;
        do {
            w = in.next();
            dos += w;
        } while (w > 0);
        return count + ":" + product + ":" + dos;
    }

    @Test
    void whileWithPausableConditionAndDoWhile() {
        check(new int[] {2, 3, 7, 0, 5, 6, -1}, "3:42:10", ControlFlowTest::whileAndDo);
    }

    @Pausable
    static String labelled(Source in) {
        StringBuilder trace = new StringBuilder();
        long total = 0;
        outer:
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                int v = in.next();
                if (v < 0) {
                    trace.append('c').append(i);
                    continue outer;
                }
                if (v == 0) {
                    trace.append('b').append(i).append(j);
                    break outer;
                }
                if (v > 100) {
                    trace.append('i');
                    break;
                }
                total += (long) v * (i + 1) * (j + 1);
            }
            trace.append('.');
        }
        return trace + ":" + total;
    }

    static String plainLabelled(int[] values) {
        Plain in = new Plain(values);
        StringBuilder trace = new StringBuilder();
        long total = 0;
        outer:
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                int v = in.next();
                if (v < 0) {
                    trace.append('c').append(i);
                    continue outer;
                }
                if (v == 0) {
                    trace.append('b').append(i).append(j);
                    break outer;
                }
                if (v > 100) {
                    trace.append('i');
                    break;
                }
                total += (long) v * (i + 1) * (j + 1);
            }
            trace.append('.');
        }
        return trace + ":" + total;
    }

    @Test
    void nestedLoopsWithLabelledBreakAndContinue() {
        int[] in = {1, 2, -1, 5, 200, 3, 4, 0};
        check(in, plainLabelled(in), ControlFlowTest::labelled);
    }

    @Pausable
    @SuppressWarnings("fallthrough")
    static String intSwitch(Source in) {
        StringBuilder out = new StringBuilder();
        for (int k = 0; k < 5; k++) {
            switch (in.next()) {
                case 0:
                    out.append("zero").append(in.next());
                    break;
                case 1:
                    out.append("one");
                    // fall through
                case 2:
                    out.append("two").append(in.nextLong());
                    break;
                case 3:
                    out.append("three");
                    break;
                default:
                    out.append("d").append(in.nextString());
            }
            out.append(',');
        }
        return out.toString();
    }

    @Test
    void switchOnReadWithPausableCases() {
        int[] in = {0, 9, 1, 8, 2, 7, 3, 50, 6};
        String expected = "zero9,onetwo" + Source.wide(8) + ",two" + Source.wide(7) + ",three,ds6,";
        check(in, expected, ControlFlowTest::intSwitch);
    }

    @Pausable
    static long sparseSwitch(Source in) {
        long acc = 0;
        for (int k = 0; k < 4; k++) {
            int sel = in.next();
            switch (sel) {
                case -1_000_000:
                    acc -= in.next();
                    break;
                case 17:
                    acc += 17L * in.next();
                    break;
                case 1 << 20:
                    acc ^= in.nextLong();
                    break;
                default:
                    acc += sel;
            }
        }
        return acc;
    }

    @Test
    void lookupSwitchWithPausableCases() {
        int[] in = {-1_000_000, 5, 17, 3, 1 << 20, 11, 42};
        long acc = -5 + 17L * 3;
        acc ^= Source.wide(11);
        acc += 42;
        check(in, acc, ControlFlowTest::sparseSwitch);
    }

    enum Colour { RED, GREEN, BLUE }

    @Pausable
    static Colour readColour(Source in) {
        return Colour.values()[in.next()];
    }

    @Pausable
    static String enumSwitch(Source in) {
        String out = "";
        for (int k = 0; k < 3; k++) {
            Colour c;
            switch (c = readColour(in)) {
                case RED:
                    out += "r" + in.next();
                    break;
                case GREEN:
                    out += "g";
                    break;
                default:
                    out += c.name().toLowerCase() + in.nextDouble();
            }
        }
        return out;
    }

    @Test
    void switchOnEnumWithPausableCases() {
        check(new int[] {2, 12, 0, 5, 1}, "blue" + Source.fraction(12) + "r5g", ControlFlowTest::enumSwitch);
    }

    @Pausable
    static int stringSwitch(Source in) {
        int total = 0;
        for (int k = 0; k < 4; k++) {
            switch (in.nextString()) {
                case "s1":
                    total += in.next();
                    break;
                case "s2":
                case "s3":
                    total *= in.next();
                    break;
                default:
                    total -= 1;
            }
        }
        return total;
    }

    @Test
    void switchOnStringWithPausableSelectorAndCases() {
        check(new int[] {1, 10, 3, 4, 9, 2, 5}, ((10 * 4) - 1) * 5, ControlFlowTest::stringSwitch);
    }

    @Pausable
    static int switchExpression(Source in) {
        int total = 0;
        for (int k = 0; k < 4; k++) {
            int r = switch (in.next()) {
                case 1 -> in.next();
                case 2, 3 -> in.next() * 10 + total;
                case 4 -> {
                    int a = in.next();
                    int b = in.next();
                    yield a * b;
                }
                default -> 0;
            };
            total += r;
        }
        return total;
    }

    @Test
    void switchExpressionsWithPausableArms() {
        // 1 -> 7; 3 -> 2*10+7 = 27 (total 34); 4 -> 5*6 = 30 (total 64); 9 -> 0.
        check(new int[] {1, 7, 3, 2, 4, 5, 6, 9}, 64, ControlFlowTest::switchExpression);
    }

    @Pausable
    static String stringSwitchExpression(Source in) {
        String s = in.nextString();
        long big = 1L << 40;
        return switch (s) {
            case "s1" -> "one" + in.nextLong();
            case "s2" -> {
                String t = in.nextString();
                yield t + big;
            }
            default -> "other";
        };
    }

    @Test
    void switchExpressionOnStringYieldingAfterPause() {
        check(new int[] {2, 5}, "s5" + (1L << 40), ControlFlowTest::stringSwitchExpression);
        check(new int[] {1, 5}, "one" + Source.wide(5), ControlFlowTest::stringSwitchExpression);
    }

    static final class Shape {
        final int sides;

        Shape(int sides) {
            this.sides = sides;
        }
    }

    @Pausable
    static String patterns(Source in) {
        Object[] things = {new Shape(in.next()), in.nextString(), 4L};
        String out = "";
        for (Object o : things) {
            if (o instanceof Shape sh && sh.sides == in.next()) {
                out += "shape" + sh.sides;
            } else if (o instanceof String str) {
                int n = in.next();
                out += str + n;
            } else if (o instanceof Long l && l > in.next()) {
                out += "long" + l;
            }
        }
        return out;
    }

    @Test
    void instanceofPatternsAroundPauses() {
        check(new int[] {3, 8, 3, 6, 2}, "shape3s86long4", ControlFlowTest::patterns);
    }

    @Pausable
    static int earlyReturn(Source in) {
        for (int i = 0; i < 10; i++) {
            for (int j = 0; j < 10; j++) {
                int v = in.next();
                if (v == i * j + 1) {
                    return i * 100 + j;
                }
            }
        }
        return -1;
    }

    @Test
    void returnFromNestedLoopsAfterPause() {
        int[] in = new int[13];
        in[12] = 1 * 2 + 1; // i = 1, j = 2
        check(in, 102, ControlFlowTest::earlyReturn);
    }

    @Pausable
    static boolean positive(Source in) {
        return in.next() > 0;
    }

    @Pausable
    static int assertWithPausableCondition(Source in) {
        int before = 7;
        assert positive(in) : "not positive";
        return before * in.next();
    }

    @Test
    void assertStatementWithPausableCondition() {
        boolean enabled = ControlFlowTest.class.desiredAssertionStatus();
        int[] in = enabled ? new int[] {1, 6} : new int[] {6};
        check(in, 42, ControlFlowTest::assertWithPausableCondition);
    }

    @Pausable
    static String forEachLoops(Source in) {
        long sum = 0;
        for (String s : List.of("a", "bb", "ccc")) {
            sum += s.length() * (long) in.next();
        }
        StringBuilder sb = new StringBuilder();
        for (int x : new int[] {5, 6}) {
            sb.append(x + in.next());
        }
        return sum + ":" + sb;
    }

    @Test
    void forEachWithPauses() {
        check(new int[] {1, 2, 3, 10, 20}, (1 + 4 + 9) + ":" + 15 + 26, ControlFlowTest::forEachLoops);
    }
}
