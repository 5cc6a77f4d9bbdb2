package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Values that sit on the operand stack while a pausable call pauses. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OperandStackTest {

    static String f(int a, int b, long c) {
        return a + "/" + b + "/" + c;
    }

    static String mix(long a, double b, String c, int d, float e, Object f, double g) {
        return a + "|" + b + "|" + c + "|" + d + "|" + e + "|" + f + "|" + g;
    }

    @Pausable
    static String argumentsAroundCall(Source in) {
        int a = in.next();
        long c = a * 1_000_000_007L;
        return f(a, in.next(), c) + f(a + 1, in.next(), in.nextLong());
    }

    @Test
    void argumentBeforeAndAfterPausableArgument() {
        long c = 6 * 1_000_000_007L;
        check(new int[] {6, 7, 8, 9}, f(6, 7, c) + f(7, 8, Source.wide(9)), OperandStackTest::argumentsAroundCall);
    }

    @Pausable
    static String wideValuesOnStack(Source in) {
        long l = in.nextLong();
        double d = in.nextDouble();
        float fl = 0.75f;
        return mix(l, d, "str", in.next(), fl, f(1, in.next(), l), in.nextDouble());
    }

    @Test
    void longDoubleFloatAndReferencesOnStack() {
        Plain p = new Plain(11, 12, 13, 14, 15);
        long l = p.nextLong();
        double d = p.nextDouble();
        String expected = mix(l, d, "str", p.next(), 0.75f, f(1, p.next(), l), p.nextDouble());
        check(new int[] {11, 12, 13, 14, 15}, expected, OperandStackTest::wideValuesOnStack);
    }

    @Pausable
    static String constantsOnStack(Source in) {
        return mix(1L, 2.5, "k", in.next(), 3f, null, Double.NaN) + mix(Long.MIN_VALUE, -0.0, null, in.next(), 0f,
                "lit", 1e300);
    }

    @Test
    void constantsAndNullOnStack() {
        String expected = mix(1L, 2.5, "k", 4, 3f, null, Double.NaN) + mix(Long.MIN_VALUE, -0.0, null, 5, 0f, "lit",
                1e300);
        check(new int[] {4, 5}, expected, OperandStackTest::constantsOnStack);
    }

    @Pausable
    static String plusEqualsOnLocals(Source in) {
        int x = 10;
        x += in.next();
        long lx = 1L << 40;
        lx += in.nextLong();
        double dx = 1.5;
        dx *= in.nextDouble();
        float fx = 2f;
        fx -= in.next();
        short sx = 30_000;
        sx += in.next();
        return x + "," + lx + "," + dx + "," + fx + "," + sx;
    }

    @Test
    void compoundAssignmentToLocals() {
        short sx = 30_000;
        sx += 5_000;
        String expected = (10 + 3) + "," + ((1L << 40) + Source.wide(4)) + "," + (1.5 * Source.fraction(5)) + ","
                + (2f - 6) + "," + sx;
        check(new int[] {3, 4, 5, 6, 5_000}, expected, OperandStackTest::plusEqualsOnLocals);
    }

    static final class Counter {
        int count;
        long big;
        double ratio = 1;
        Counter other;

        Counter(int count) {
            this.count = count;
        }

        @Pausable
        String addToFields(Source in) {
            count += in.next();
            big += in.nextLong();
            ratio /= in.nextDouble();
            other = new Counter(100);
            other.count -= in.next();
            this.count *= in.next();
            return count + "," + big + "," + ratio + "," + other.count;
        }
    }

    @Test
    void compoundAssignmentToFields() {
        String expected = ((5 + 2) * 6) + "," + Source.wide(3) + "," + (1 / Source.fraction(4)) + "," + (100 - 5);
        check(new int[] {2, 3, 4, 5, 6}, expected, in -> new Counter(5).addToFields(in));
    }

    static int staticInt;
    static long staticLong;
    static String staticText;

    @Pausable
    static String addToStatics(Source in) {
        staticInt = 1;
        staticLong = -1;
        staticText = "t";
        staticInt += in.next();
        staticLong += in.nextLong();
        staticText += in.nextString();
        staticInt <<= in.next();
        return staticInt + "," + staticLong + "," + staticText;
    }

    @Test
    void compoundAssignmentToStaticFields() {
        String expected = ((1 + 7) << 2) + "," + (-1 + Source.wide(8)) + ",ts9";
        check(new int[] {7, 8, 9, 2}, expected, OperandStackTest::addToStatics);
    }

    @Pausable
    static String addToArrayElements(Source in) {
        int[] a = {1, 2, 3};
        long[] la = {10, 20};
        double[] da = {0.5, 1.5};
        byte[] ba = {100};
        char[] ca = {'a'};
        int i = 1;
        a[i] += in.next();
        a[i++] *= in.next();
        la[i - 1] += in.nextLong();
        da[0] -= in.nextDouble();
        ba[0] += in.next();
        ca[0] += in.next();
        a[2] = a[a[0]] + in.next();
        return Arrays.toString(a) + Arrays.toString(la) + Arrays.toString(da) + ba[0] + ca[0] + i;
    }

    @Test
    void compoundAssignmentToArrayElements() {
        int[] a = {1, 2, 3};
        a[1] += 4;
        a[1] *= 5;
        long[] la = {10, 20};
        la[1] += Source.wide(6);
        double[] da = {0.5 - Source.fraction(7), 1.5};
        byte[] ba = {100};
        ba[0] += 50;
        char[] ca = {'a'};
        ca[0] += 2;
        a[2] = a[a[0]] + 9;
        String expected = Arrays.toString(a) + Arrays.toString(la) + Arrays.toString(da) + ba[0] + ca[0] + 2;
        check(new int[] {4, 5, 6, 7, 50, 2, 9}, expected, OperandStackTest::addToArrayElements);
    }

    @Pausable
    static String storeIntoArrays(Source in) {
        int[] a = new int[4];
        String[] s = new String[2];
        long[][] m = new long[2][2];
        int i = 0;
        a[i] = in.next();
        a[++i] = in.next();
        a[in.next()] = in.next();
        s[1] = in.nextString();
        m[1][0] = in.nextLong();
        Object[] objs = new Integer[1];
        objs[0] = in.next();
        return Arrays.toString(a) + Arrays.toString(s) + Arrays.deepToString(m) + objs[0];
    }

    @Test
    void arrayElementAssignment() {
        int[] a = {5, 6, 0, 8};
        long[][] m = {{0, 0}, {Source.wide(10), 0}};
        String expected = Arrays.toString(a) + Arrays.toString(new String[] {null, "s9"}) + Arrays.deepToString(m)
                + 11;
        check(new int[] {5, 6, 3, 8, 9, 10, 11}, expected, OperandStackTest::storeIntoArrays);
    }

    @Pausable
    static String wideArithmetic(Source in) {
        long a = in.nextLong();
        long b = 3;
        long r1 = a + in.nextLong() * b;
        long r2 = a - in.next() * b;
        double x = in.nextDouble();
        double y = -2.25;
        double r3 = x + in.nextDouble() * y;
        double r4 = x / (in.next() + y);
        return r1 + "," + r2 + "," + r3 + "," + r4;
    }

    @Test
    void longAndDoubleArithmeticAroundCall() {
        Plain p = new Plain(1, 2, 3, 4, 5, 6);
        long a = p.nextLong();
        long r1 = a + p.nextLong() * 3;
        long r2 = a - p.next() * 3L;
        double x = p.nextDouble();
        double r3 = x + p.nextDouble() * -2.25;
        double r4 = x / (p.next() + -2.25);
        check(new int[] {1, 2, 3, 4, 5, 6}, r1 + "," + r2 + "," + r3 + "," + r4, OperandStackTest::wideArithmetic);
    }

    @Pausable
    static String concatenation(Source in) {
        String y = "Y";
        long big = 1L << 33;
        double d = 0.1;
        String first = "x" + in.next() + y;
        String second = first + "-" + big + in.nextString() + d + "-" + in.nextLong() + '!' + in.nextDouble();
        return second;
    }

    @Test
    void stringConcatenationAroundCall() {
        String first = "x" + 1 + "Y";
        String expected = first + "-" + (1L << 33) + "s2" + 0.1 + "-" + Source.wide(3) + '!' + Source.fraction(4);
        check(new int[] {1, 2, 3, 4}, expected, OperandStackTest::concatenation);
    }

    @Pausable
    static long ternaries(Source in) {
        boolean c = in.nextBoolean();
        int r1 = c ? in.next() : 0;
        int r2 = !c ? in.next() : -1;
        long r3 = c ? (r1 > 5 ? in.nextLong() : -2L) : in.next();
        return r1 * 31L + r2 * 17L + r3;
    }

    @Test
    void ternaryWithPausableBranch() {
        check(new int[] {1, 9, 4}, 9 * 31L - 17L + Source.wide(4), OperandStackTest::ternaries);
        check(new int[] {2, 9, 4}, 9 * 17L + 4, OperandStackTest::ternaries);
    }

    @Pausable
    static String shortCircuit(Source in) {
        int evaluated = 0;
        String out = "";
        for (int round = 0; round < 3; round++) {
            boolean r = in.nextBoolean() && in.next() > 5 || in.nextBoolean();
            evaluated++;
            out += r;
            boolean s = in.nextBoolean() || (in.next() == 7 && in.nextBoolean());
            out += s;
        }
        return out + evaluated;
    }

    static String plainShortCircuit(Plain in) {
        String out = "";
        for (int round = 0; round < 3; round++) {
            boolean r = in.nextBoolean() && in.next() > 5 || in.nextBoolean();
            out += r;
            boolean s = in.nextBoolean() || (in.next() == 7 && in.nextBoolean());
            out += s;
        }
        return out + 3;
    }

    @Test
    void andOrWithPausableOperands() {
        // Round 1: true && 9>5 -> true; s: false || (7==7 && true) -> true.
        // Round 2: false && .. -> || false -> false; s: true.
        // Round 3: true && 2>5 false -> || true -> true; s: false || (6==7) -> false.
        int[] in = {1, 9, 2, 7, 1, 2, 0, 1, 1, 2, 1, 0, 6};
        check(in, plainShortCircuit(new Plain(in)), OperandStackTest::shortCircuit);
    }

    @Pausable
    static String duplicates(Source in) {
        int x;
        int y;
        x = y = in.next();
        int[] a = new int[3];
        a[0] = a[1] = in.next();
        long l;
        long m = l = in.nextLong();
        int counter = 5;
        int v = counter++ + in.next();
        int w = ++counter * in.next();
        return x + "," + y + "," + Arrays.toString(a) + "," + l + "," + m + "," + v + "," + w + "," + counter;
    }

    @Test
    void duplicatedValuesOnStack() {
        long l = Source.wide(3);
        String expected = "1,1," + Arrays.toString(new int[] {2, 2, 0}) + "," + l + "," + l + "," + (5 + 4) + ","
                + (7 * 5) + ",7";
        check(new int[] {1, 2, 3, 4, 5}, expected, OperandStackTest::duplicates);
    }

    @Pausable
    static String discardedAndWideDuplicates(Source in) {
        in.nextLong();
        in.nextDouble();
        in.nextString();
        long[] la = new long[2];
        long lv;
        la[1] = lv = in.nextLong();
        double[] da = {0};
        double dv = da[0] = in.nextDouble();
        return la[1] + "," + lv + "," + da[0] + "," + dv;
    }

    @Test
    void discardedResultsAndWideDuplicates() {
        long l = Source.wide(4);
        double d = Source.fraction(5);
        check(new int[] {1, 2, 3, 4, 5}, l + "," + l + "," + d + "," + d,
                OperandStackTest::discardedAndWideDuplicates);
    }

    @Pausable
    static int callsOnResults(Source in) {
        StringBuilder sb = new StringBuilder();
        sb.append(in.next()).append('/').append(in.nextString());
        return in.nextString().length() * 100 + sb.toString().hashCode() % 100 + sb.append(in.next()).length();
    }

    @Test
    void receiverOnStackAcrossCall() {
        String sb = 12 + "/" + "s34";
        check(new int[] {12, 34, 56789, 1}, "s56789".length() * 100 + sb.hashCode() % 100 + (sb + 1).length(),
                OperandStackTest::callsOnResults);
    }

    @Pausable
    static String comparisons(Source in) {
        long lim = 1L << 35;
        double half = 0.5;
        String out = "";
        out += in.nextLong() > lim;
        out += in.nextDouble() < half;
        out += in.next() >= 3 ? "ge" : "lt";
        out += in.nextString() == null;
        Object o = in.nextString();
        out += o instanceof String;
        out += ((String) (Object) in.nextString()).length();
        return out;
    }

    @Test
    void comparisonsAndCastsAfterCall() {
        String expected = "" + (Source.wide(7) > (1L << 35)) + (Source.fraction(2) < 0.5) + "ge" + false + true + 3;
        check(new int[] {7, 2, 3, 4, 5, 66}, expected, OperandStackTest::comparisons);
    }
}
