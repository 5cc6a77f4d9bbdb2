package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Deep stacks of woven frames: every frame is saved and rebuilt at each pause. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecursionTest {

    private static int[] range(int n, int seed) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = (i * seed + 7) % 1000 - 300;
        }
        return a;
    }

    /** One read on the way down at every level, one on the way up. */
    @Pausable
    static long sumDown(Source in, int depth) {
        if (depth == 0) {
            return 1;
        }
        int v = in.next();
        long below = sumDown(in, depth - 1);
        int after = in.next();
        return below * 31 + v * (long) depth - after;
    }

    static long plainSumDown(Plain in, int depth) {
        if (depth == 0) {
            return 1;
        }
        int v = in.next();
        long below = plainSumDown(in, depth - 1);
        int after = in.next();
        return below * 31 + v * (long) depth - after;
    }

    @Test
    void recursionThousandDeepPausingAtEveryLevel() {
        int[] in = range(2000, 37);
        check(in, plainSumDown(new Plain(in), 1000), 5, s -> sumDown(s, 1000));
    }

    @Pausable
    static String c1(Source in) {
        int a = in.next();
        return a + ">" + c2(in, a * 2L);
    }

    @Pausable
    static String c2(Source in, long x) {
        double d = in.nextDouble();
        return x + ">" + c3(in, d, x);
    }

    @Pausable
    static String c3(Source in, double d, long x) {
        String s = in.nextString();
        return s + ">" + c4(in, (float) d, s.length()) + d + x;
    }

    @Pausable
    static String c4(Source in, float f, int n) {
        boolean b = in.nextBoolean();
        return f + ">" + c5(in, b, (char) ('a' + n)) + n;
    }

    @Pausable
    static String c5(Source in, boolean b, char c) {
        short s = (short) in.next();
        return b + ">" + c6(in, new int[] {s, c}) + c;
    }

    @Pausable
    static String c6(Source in, int[] arr) {
        byte y = (byte) in.next();
        return arr[0] + ">" + c7(in, y, arr);
    }

    @Pausable
    static String c7(Source in, byte y, int[] arr) {
        long l = in.nextLong();
        return y + ">" + c8(in, l ^ arr[1]) + arr[1];
    }

    @Pausable
    static String c8(Source in, long l) {
        Object o = in.nextString();
        return l + ">" + c9(in, o, l);
    }

    @Pausable
    static String c9(Source in, Object o, long l) {
        int v = in.next();
        return o + ">" + c10(in, v + l);
    }

    @Pausable
    static String c10(Source in, long total) {
        int last = in.next();
        return "[" + (total + last) + "]";
    }

    @Test
    void chainOfTenDifferentMethods() {
        Plain p = new Plain(1, 2, 3, 5, 600, 70, 8, 9, 10, 11);
        int a = p.next();
        long x = a * 2L;
        double d = p.nextDouble();
        String s = p.nextString();
        float f = (float) d;
        int n = s.length();
        boolean b = p.nextBoolean();
        char c = (char) ('a' + n);
        short sh = (short) p.next();
        byte y = (byte) p.next();
        long l = p.nextLong() ^ c;
        Object o = p.nextString();
        int v = p.next();
        int last = p.next();
        String inner = l + ">" + o + ">" + "[" + (v + l + last) + "]";
        String expected = a + ">" + x + ">" + s + ">" + f + ">" + b + ">" + sh + ">" + y + ">" + inner + (int) c + c
                + n + d + x;
        check(new int[] {1, 2, 3, 5, 600, 70, 8, 9, 10, 11}, expected, RecursionTest::c1);
    }

    @Pausable
    static boolean isEven(Source in, int n, long[] trail) {
        if (n == 0) {
            return true;
        }
        trail[0] = trail[0] * 3 + in.next();
        return isOdd(in, n - 1, trail);
    }

    @Pausable
    static boolean isOdd(Source in, int n, long[] trail) {
        if (n == 0) {
            return false;
        }
        double w = in.nextDouble();
        boolean r = isEven(in, n - 1, trail);
        trail[0] += (long) (w * 8);
        return r;
    }

    @Pausable
    static String mutual(Source in) {
        long[] trail = {0};
        boolean even = isEven(in, 41, trail);
        return even + ":" + trail[0];
    }

    @Test
    void mutualRecursion() {
        int[] in = range(41, 13);
        // isEven reads at even depths (0, 2, ..), isOdd at odd depths; isOdd adds after the recursion returns.
        long trail = 0;
        for (int depth = 0; depth < 41; depth += 2) {
            trail = trail * 3 + in[depth];
        }
        for (int depth = 39; depth >= 1; depth -= 2) {
            trail += (long) (Source.fraction(in[depth]) * 8);
        }
        check(in, false + ":" + trail, RecursionTest::mutual);
    }

    @Pausable
    static long tree(Source in, int depth, long acc, double scale) {
        if (depth == 0) {
            return acc + (long) (in.next() * scale);
        }
        long left = tree(in, depth - 1, acc * 2, scale * 1.5);
        long right = tree(in, depth - 1, acc * 2 + 1, scale / 2);
        return left - right + depth;
    }

    static long plainTree(Plain in, int depth, long acc, double scale) {
        if (depth == 0) {
            return acc + (long) (in.next() * scale);
        }
        long left = plainTree(in, depth - 1, acc * 2, scale * 1.5);
        long right = plainTree(in, depth - 1, acc * 2 + 1, scale / 2);
        return left - right + depth;
    }

    @Test
    void treeRecursionWithWideParameters() {
        int[] in = range(256, 91);
        check(in, plainTree(new Plain(in), 8, 1, 1.0), 20, s -> tree(s, 8, 1, 1.0));
    }
}
