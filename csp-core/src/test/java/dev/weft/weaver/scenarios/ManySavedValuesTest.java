package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;
import static dev.weft.weaver.scenarios.ScenarioHarness.inThread;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Pausable;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nested frames that each save more values than a fiber's saved stacks first hold (four references, three
 * primitives), longs, doubles, floats, ints and references mixed, some of them on the operand stack under the
 * call: a new fiber's first pause grows its stacks as each frame saves, innermost frame first, and every value
 * comes back. Each run is a new fiber, on one worker and, many times, on two.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ManySavedValuesTest {
    /** One input per read below (outer reads 6, each middle 4 and two inners of 5), no two alike. */
    private static final int[] INPUTS = IntStream.range(0, 34).map(k -> 11 + 12 * k).toArray();

    @Pausable
    static String outer(Source in) {
        long a = in.nextLong();
        double b = in.nextDouble();
        String c = in.nextString();
        int[] d = {in.next()};
        float e = in.next() / 4f;
        Object f = List.of(a, c);
        long g = a * 31 + 7;
        double h = b * b;
        StringBuilder i = new StringBuilder(c).append('!');
        boolean j = (d[0] & 2) != 0;
        Long k = g ^ 0x5555L;
        // The reads below leave a computed reference, long and double on the operand stack under the call.
        String m = i.toString() + middle(in, a, h, f);
        long n = g * 3 + in.nextLong();
        double o = h / 2 + middle(in, n, b, c).length();
        return String.join("|", "" + a, "" + b, c, "" + d[0], "" + e, "" + f, "" + g, "" + h, i.toString(), "" + j,
                "" + k, m, "" + n, "" + o);
    }

    @Pausable
    static String middle(Source in, long x, double y, Object z) {
        long p = x + in.nextLong();
        double q = y * in.nextDouble();
        Object r = z;
        String s = in.nextString();
        int t = in.next();
        float u = t * 0.5f;
        int[] v = {t, t + 1};
        Double w = q;
        Object[] aa = {r, s};
        String inner = inner(in, p, q, s, v);
        long bb = p * 5 + inner(in, x, y, aa, v).length();
        return p + ";" + q + ";" + r + ";" + s + ";" + t + ";" + u + ";" + v[1] + ";" + w + ";" + aa.length + ";"
                + inner + ";" + bb;
    }

    @Pausable
    static String inner(Source in, long x, double y, Object z, int[] v) {
        long p = x - in.nextLong();
        double q = y + in.nextDouble();
        float r = in.next() / 8f;
        String s = in.nextString();
        Object t = z;
        Long u = p;
        Double w = q;
        char c = (char) ('a' + v[0] % 26);
        long last = p * 7 + in.next();
        return p + "," + q + "," + r + "," + s + "," + t.getClass().getSimpleName() + "," + u + "," + w + "," + c
                + "," + v.length + "," + last;
    }

    @Test
    void nestedFramesSavingManyValuesResumeInANewFiber() {
        String expected = inThread(INPUTS, ManySavedValuesTest::outer);
        assertTrue(expected.split("\\|").length == 14, expected);
        check(INPUTS, expected, ManySavedValuesTest::outer);
    }
}
