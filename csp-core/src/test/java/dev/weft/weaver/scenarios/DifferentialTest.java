package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;

import dev.weft.csp.Pausable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table-driven: each pausable method runs woven as a fiber and must return what the very same method
 * returns in thread mode, on random inputs. Every method reads exactly {@link #N} values.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DifferentialTest {
    static final int N = 40;

    @Pausable
    static long checksum(Source in) {
        long h = 1125899906842597L;
        for (int i = 0; i < N; i++) {
            h = 31 * h + in.next();
        }
        return h;
    }

    @Pausable
    static String sortRead(Source in) {
        int[] a = new int[N];
        for (int i = 0; i < N; i++) {
            int v = in.next();
            int j = i;
            while (j > 0 && a[j - 1] > v) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = v;
        }
        return Arrays.toString(a);
    }

    @Pausable
    static String stateMachine(Source in) {
        StringBuilder out = new StringBuilder();
        int state = 0;
        long acc = 0;
        for (int i = 0; i < N; i++) {
            int v = in.next();
            switch (state) {
                case 0:
                    acc += v;
                    state = v > 0 ? 1 : 2;
                    break;
                case 1:
                    acc *= v == 0 ? 1 : v;
                    state = 2;
                    break;
                default:
                    out.append(acc % 97).append(' ');
                    state = Math.floorMod(v, 3);
            }
        }
        return out.append(acc).toString();
    }

    @Pausable
    static double doubles(Source in) {
        double[] m = new double[N];
        double total = 0;
        for (int i = 0; i < N; i++) {
            m[i] = in.nextDouble();
            total += i > 0 ? m[i] * m[i - 1] : m[i];
        }
        return total / (N + 0.5);
    }

    @Pausable
    static String exceptionsAsFlow(Source in) {
        List<String> log = new ArrayList<>();
        int errors = 0;
        for (int i = 0; i < N; i++) {
            try {
                int v = in.next();
                if (v % 7 == 0) {
                    throw new IllegalArgumentException("seven" + i);
                }
                log.add(Integer.toString(100 / (v % 5)));
            } catch (ArithmeticException e) {
                log.add("div");
            } catch (IllegalArgumentException e) {
                errors++;
            } finally {
                if (log.size() > 5) {
                    log.remove(0);
                }
            }
        }
        return log + ":" + errors;
    }

    @Pausable
    static long gcdChain(Source in) {
        long acc = 0;
        for (int i = 0; i < N / 2; i++) {
            acc += gcd(Math.abs(in.next()) + 1, in, 0);
        }
        return acc;
    }

    @Pausable
    static long gcd(long a, Source in, int depth) {
        long b = Math.abs(in.next()) + 1;
        return depth > 3 ? a % b : gcdRest(a, b);
    }

    static long gcdRest(long a, long b) {
        return b == 0 ? a : gcdRest(b, a % b);
    }

    @Pausable
    static String wideBits(Source in) {
        long x = 0;
        int flips = 0;
        for (int i = 0; i < N; i++) {
            long v = in.nextLong();
            x = Long.rotateLeft(x, 7) ^ v;
            if (Long.bitCount(x) % 2 == 0) {
                flips++;
            }
        }
        return Long.toHexString(x) + "/" + flips;
    }

    @Pausable
    static String textual(Source in) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < N; i++) {
            String s = in.nextString();
            sb.append(s.length() > 3 ? s.substring(1) : s).append(i % 4 == 3 ? "\n" : ",");
        }
        return sb.toString();
    }

    @Pausable
    static int recursiveSplit(Source in) {
        return split(in, N);
    }

    @Pausable
    static int split(Source in, int n) {
        if (n == 1) {
            return in.next();
        }
        int half = n / 2;
        int left = split(in, half);
        int right = split(in, n - half);
        return Math.max(left, right) - Math.min(left, right) / 2;
    }

    @Pausable
    static String mixedTypes(Source in) {
        byte b = 0;
        short s = 0;
        char c = 'a';
        float f = 0;
        boolean flag = false;
        for (int i = 0; i < N; i++) {
            int v = in.next();
            b += v;
            s -= v * 3;
            c = (char) (c + (v & 7));
            f += v / 7f;
            flag ^= v > 0;
        }
        return b + ":" + s + ":" + (int) c + ":" + f + ":" + flag;
    }

    static Stream<Arguments> table() {
        List<Arguments> rows = new ArrayList<>();
        Object[][] methods = {
            {"checksum", (Scenario<Long>) DifferentialTest::checksum},
            {"sortRead", (Scenario<String>) DifferentialTest::sortRead},
            {"stateMachine", (Scenario<String>) DifferentialTest::stateMachine},
            {"doubles", (Scenario<Double>) DifferentialTest::doubles},
            {"exceptionsAsFlow", (Scenario<String>) DifferentialTest::exceptionsAsFlow},
            {"gcdChain", (Scenario<Long>) DifferentialTest::gcdChain},
            {"wideBits", (Scenario<String>) DifferentialTest::wideBits},
            {"textual", (Scenario<String>) DifferentialTest::textual},
            {"recursiveSplit", (Scenario<Integer>) DifferentialTest::recursiveSplit},
            {"mixedTypes", (Scenario<String>) DifferentialTest::mixedTypes},
        };
        for (Object[] m : methods) {
            for (long seed : new long[] {1, 2, 3}) {
                Random r = new Random(seed * 7919 + m[0].hashCode());
                int[] inputs = new int[N];
                for (int i = 0; i < N; i++) {
                    inputs[i] = r.nextInt(2001) - 1000;
                }
                rows.add(Arguments.of(m[0] + "#" + seed, m[1], inputs));
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void wovenMatchesThreadMode(String name, Scenario<Object> method, int[] inputs) {
        Object reference = ScenarioHarness.inThread(inputs, method);
        check(inputs, reference, 10, method);
    }
}
