package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Locals of every type that must survive a pause. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LocalsAcrossPauseTest {

    @Pausable
    static String booleans(Source in) {
        boolean t = in.next() > 0;
        boolean f = !t;
        boolean odd = in.nextBoolean();
        boolean mixed = t ^ odd;
        int n = in.next();
        return t + "," + f + "," + odd + "," + mixed + "," + (n > 10 && t);
    }

    @Test
    void booleanLocals() {
        int[] in = {7, -3, 12};
        boolean t = true;
        boolean odd = (-3 & 1) != 0;
        check(in, t + "," + !t + "," + odd + "," + (t ^ odd) + "," + true, LocalsAcrossPauseTest::booleans);
    }

    @Pausable
    static int bytes(Source in) {
        byte b = (byte) in.next();
        byte c = (byte) (b * 3);
        int x = in.next();
        byte d = (byte) (b + x);
        in.next();
        return b * 1_000_000 + c * 1000 + d;
    }

    @Test
    void byteLocals() {
        byte b = (byte) 300;
        byte c = (byte) (b * 3);
        byte d = (byte) (b + 100);
        check(new int[] {300, 100, 0}, b * 1_000_000 + c * 1000 + d, LocalsAcrossPauseTest::bytes);
    }

    @Pausable
    static String chars(Source in) {
        char c = (char) ('a' + in.next());
        char d = Character.toUpperCase(c);
        char e = (char) 0xFFFF;
        int k = in.next();
        char f = (char) (c + k);
        in.next();
        return "" + c + d + (int) e + f;
    }

    @Test
    void charLocals() {
        char c = (char) ('a' + 3);
        char f = (char) (c + 2);
        check(new int[] {3, 2, 9}, "" + c + Character.toUpperCase(c) + 0xFFFF + f, LocalsAcrossPauseTest::chars);
    }

    @Pausable
    static int shorts(Source in) {
        short s = (short) in.next();
        short t = (short) (s * s);
        short u = Short.MIN_VALUE;
        in.next();
        return s + 7 * t + 13 * u;
    }

    @Test
    void shortLocals() {
        short s = (short) 40_000;
        short t = (short) (s * s);
        check(new int[] {40_000, 1}, s + 7 * t + 13 * Short.MIN_VALUE, LocalsAcrossPauseTest::shorts);
    }

    @Pausable
    static int ints(Source in) {
        int a = in.next();
        int b = Integer.MAX_VALUE - a;
        int c = in.next();
        int d = a * c;
        int e = in.next();
        return a + b * 3 + c * 5 + d * 7 + e * 11;
    }

    @Test
    void intLocals() {
        int a = 5, c = -9, e = 123_456;
        int b = Integer.MAX_VALUE - a;
        check(new int[] {a, c, e}, a + b * 3 + c * 5 + a * c * 7 + e * 11, LocalsAcrossPauseTest::ints);
    }

    @Pausable
    static long longs(Source in) {
        long a = in.nextLong();
        long b = a >>> 7;
        int k = in.next();
        long c = in.nextLong();
        long d = Long.MIN_VALUE + k;
        in.next();
        return a ^ (b * k) + c - d;
    }

    @Test
    void longLocals() {
        Plain p = new Plain(1_000_003, 77, -42, 0);
        long a = p.nextLong();
        long b = a >>> 7;
        int k = p.next();
        long c = p.nextLong();
        long d = Long.MIN_VALUE + k;
        check(new int[] {1_000_003, 77, -42, 0}, a ^ (b * k) + c - d, LocalsAcrossPauseTest::longs);
    }

    @Pausable
    static float floats(Source in) {
        float f = in.next() / 3f;
        float g = f * f;
        float nan = Float.NaN;
        in.next();
        float h = in.next() * 0.1f;
        return Float.isNaN(nan) ? f + g * h : -1f;
    }

    @Test
    void floatLocals() {
        float f = 10 / 3f;
        float g = f * f;
        float h = 4 * 0.1f;
        check(new int[] {10, 0, 4}, f + g * h, LocalsAcrossPauseTest::floats);
    }

    @Pausable
    static double doubles(Source in) {
        double x = in.nextDouble();
        double y = Math.sqrt(Math.abs(x));
        double z = -0.0;
        int n = in.next();
        double w = in.nextDouble();
        return x * n + y / w + 1 / z;
    }

    @Test
    void doubleLocals() {
        Plain p = new Plain(19, 3, 5);
        double x = p.nextDouble();
        double y = Math.sqrt(Math.abs(x));
        int n = p.next();
        double w = p.nextDouble();
        check(new int[] {19, 3, 5}, x * n + y / w + 1 / -0.0, LocalsAcrossPauseTest::doubles);
    }

    @Pausable
    static String referencesAndArrays(Source in) {
        String s = in.nextString();
        int[] ints = {1, 2, 3};
        long[][] grid = new long[2][3];
        Object o = new ArrayList<>(List.of("a"));
        double[] ds = new double[] {0.5};
        String[] names = {s, null};
        int i = in.next();
        ints[i % 3] += i;
        grid[1][2] = in.nextLong();
        @SuppressWarnings("unchecked")
        List<String> list = (List<String>) o;
        list.add(in.nextString());
        ds[0] *= i;
        names[1] = s + i;
        return s + Arrays.toString(ints) + Arrays.deepToString(grid) + list + Arrays.toString(ds)
                + Arrays.toString(names);
    }

    @Test
    void referenceAndArrayLocals() {
        int[] in = {4, 5, 6, 7};
        int[] ints = {1, 2, 3};
        ints[5 % 3] += 5;
        long[][] grid = new long[2][3];
        grid[1][2] = Source.wide(6);
        String expected = "s4" + Arrays.toString(ints) + Arrays.deepToString(grid) + List.of("a", "s7")
                + Arrays.toString(new double[] {2.5}) + Arrays.toString(new String[] {"s4", "s45"});
        check(in, expected, LocalsAcrossPauseTest::referencesAndArrays);
    }

    @Pausable
    static String wideParameters(long a, Source in, double b, int c, long d, float e, double f) {
        int x = in.next();
        long a2 = a + x;
        double b2 = b * in.next();
        int y = in.next();
        return a + ":" + a2 + ":" + b + ":" + b2 + ":" + c + ":" + d + ":" + e + ":" + f + ":" + (y + c);
    }

    @Test
    void longAndDoubleParameters() {
        long a = 1L << 40;
        double b = 2.5;
        long d = -7L << 50;
        float e = 1.25f;
        double f = Double.MAX_VALUE;
        String expected = a + ":" + (a + 3) + ":" + b + ":" + (b * 4) + ":" + 9 + ":" + d + ":" + e + ":" + f
                + ":" + (5 + 9);
        check(new int[] {3, 4, 5}, expected, in -> wideParameters(a, in, b, 9, d, e, f));
    }

    @Pausable
    static String thirtyLocals(Source in) {
        int i0 = in.next();
        long l1 = i0 * 3L;
        double d2 = i0 / 2.0;
        float f3 = i0 * 1.5f;
        String s4 = "s" + i0;
        boolean b5 = i0 > 2;
        char c6 = (char) ('A' + i0);
        short h7 = (short) (i0 * 100);
        byte y8 = (byte) (i0 * 50);
        int[] a9 = {i0};
        int i10 = in.next();
        long l11 = l1 + i10;
        double d12 = d2 * i10;
        float f13 = f3 - i10;
        String s14 = s4 + i10;
        boolean b15 = b5 && i10 < 0;
        char c16 = (char) (c6 + 1);
        short h17 = (short) (h7 + i10);
        byte y18 = (byte) (y8 + i10);
        Object o19 = a9;
        int i20 = in.next();
        long l21 = l11 * i20;
        double d22 = d12 + i20;
        float f23 = f13 * i20;
        String s24 = s14 + i20;
        boolean b25 = !b15;
        char c26 = (char) (c16 + i20);
        long l27 = Long.MAX_VALUE - i20;
        double d28 = Double.MIN_VALUE;
        int i29 = in.next();
        return "" + i0 + l1 + d2 + f3 + s4 + b5 + c6 + h7 + y8 + a9.length + i10 + l11 + d12 + f13 + s14 + b15
                + c16 + h17 + y18 + (o19 == a9) + i20 + l21 + d22 + f23 + s24 + b25 + c26 + l27 + d28 + i29;
    }

    static String plainThirtyLocals(Plain in) {
        int i0 = in.next();
        long l1 = i0 * 3L;
        double d2 = i0 / 2.0;
        float f3 = i0 * 1.5f;
        String s4 = "s" + i0;
        boolean b5 = i0 > 2;
        char c6 = (char) ('A' + i0);
        short h7 = (short) (i0 * 100);
        byte y8 = (byte) (i0 * 50);
        int i10 = in.next();
        long l11 = l1 + i10;
        double d12 = d2 * i10;
        float f13 = f3 - i10;
        String s14 = s4 + i10;
        boolean b15 = b5 && i10 < 0;
        char c16 = (char) (c6 + 1);
        short h17 = (short) (h7 + i10);
        byte y18 = (byte) (y8 + i10);
        int i20 = in.next();
        long l21 = l11 * i20;
        double d22 = d12 + i20;
        float f23 = f13 * i20;
        String s24 = s14 + i20;
        boolean b25 = !b15;
        char c26 = (char) (c16 + i20);
        long l27 = Long.MAX_VALUE - i20;
        double d28 = Double.MIN_VALUE;
        int i29 = in.next();
        return "" + i0 + l1 + d2 + f3 + s4 + b5 + c6 + h7 + y8 + 1 + i10 + l11 + d12 + f13 + s14 + b15
                + c16 + h17 + y18 + true + i20 + l21 + d22 + f23 + s24 + b25 + c26 + l27 + d28 + i29;
    }

    @Test
    void thirtyLiveLocals() {
        int[] in = {5, -2, 9, 31};
        check(in, plainThirtyLocals(new Plain(in)), LocalsAcrossPauseTest::thirtyLocals);
    }

    /** Slots reused by locals of different types in sibling scopes, each live across a pause. */
    @Pausable
    static String reusedSlots(Source in) {
        String out = "";
        {
            int a = in.next();
            long b = a * 10L;
            in.next();
            out += a + b;
        }
        {
            double x = in.nextDouble();
            String y = "y";
            in.next();
            out += "|" + x + y;
        }
        {
            Object o = null;
            float z = 2.5f;
            o = "o" + in.next();
            out += "|" + o + z;
        }
        return out;
    }

    @Test
    void slotsReusedWithOtherTypes() {
        String expected = "" + (3 + 30L) + "|" + Source.fraction(8) + "y" + "|o6" + 2.5f;
        check(new int[] {3, 0, 8, 0, 6}, expected, LocalsAcrossPauseTest::reusedSlots);
    }

    /** A local assigned on one path only, read after a pause on that path. */
    @Pausable
    static long assignedOnOnePath(Source in) {
        long late;
        int first = in.next();
        if (first > 0) {
            late = first * 1000L;
            in.next();
            return late + first;
        }
        late = -1;
        return late;
    }

    @Test
    void localAssignedOnOnePath() {
        check(new int[] {12, 0}, 12_012L, LocalsAcrossPauseTest::assignedOnOnePath);
        check(new int[] {-5}, -1L, LocalsAcrossPauseTest::assignedOnOnePath);
    }

    static final class Foo {
        final int x;

        Foo(int x) {
            this.x = x;
        }
    }

    /** {@code Foo f = null; if (c) f = new Foo(); read(); use f}: the frame merges null with Foo. */
    @Pausable
    static int nullMergedWithFoo(Source in) {
        Foo f = null;
        int c = in.next();
        if (c > 0) {
            f = new Foo(c * 2);
        }
        int v = in.next();
        return f == null ? -v : f.x + v;
    }

    @Test
    void nullMergedWithTypedValue() {
        check(new int[] {4, 10}, 18, LocalsAcrossPauseTest::nullMergedWithFoo);
        check(new int[] {-4, 10}, -10, LocalsAcrossPauseTest::nullMergedWithFoo);
    }

    /** A local that is only ever null across a pause. */
    @Pausable
    static String alwaysNull(Source in) {
        String s = null;
        Object[] arr = null;
        int v = in.next();
        return (s == null) + "," + (arr == null) + "," + v;
    }

    @Test
    void nullOnlyLocals() {
        check(new int[] {3}, "true,true,3", LocalsAcrossPauseTest::alwaysNull);
    }
}
