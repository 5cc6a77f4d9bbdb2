package dev.weft.weaver.scenarios;

import static dev.weft.weaver.scenarios.ScenarioHarness.check;
import static dev.weft.weaver.scenarios.ScenarioHarness.checkThrows;

import dev.weft.csp.Pausable;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** try/catch/finally around, inside and after pauses. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExceptionsTest {

    @Pausable
    static String pauseInTry(Source in) {
        String out = "";
        for (int k = 0; k < 4; k++) {
            try {
                int v = in.next();
                if (v < 0) {
                    throw new IllegalArgumentException("neg" + v);
                }
                out += v;
            } catch (IllegalArgumentException e) {
                out += "[" + e.getMessage() + "]";
            }
        }
        return out;
    }

    @Test
    void pausableCallInTry() {
        check(new int[] {1, -2, 3, -4}, "1[neg-2]3[neg-4]", ExceptionsTest::pauseInTry);
    }

    @Pausable
    static String pauseInCatch(Source in) {
        String out = "";
        for (int k = 0; k < 3; k++) {
            try {
                int v = in.next();
                if (v == 0) {
                    throw new ArithmeticException("zero");
                }
                out += 100 / v + ";";
            } catch (ArithmeticException e) {
                long l = in.nextLong();
                out += e.getMessage() + l + ";";
            }
        }
        return out;
    }

    @Test
    void pausableCallInCatch() {
        check(new int[] {5, 0, 7, 4}, "20;zero" + Source.wide(7) + ";25;", ExceptionsTest::pauseInCatch);
    }

    @Pausable
    static String pauseInFinally(Source in) {
        String out = "";
        for (int k = 0; k < 3; k++) {
            try {
                try {
                    int v = in.next();
                    if (v < 0) {
                        throw new IllegalStateException("s" + v);
                    }
                    if (v == 0) {
                        throw new UnsupportedOperationException("u");
                    }
                    out += v;
                } catch (IllegalStateException e) {
                    out += "!" + e.getMessage();
                } finally {
                    out += "f" + in.next();
                }
            } catch (UnsupportedOperationException e) {
                out += "U" + e.getMessage();
            }
            out += ",";
        }
        return out;
    }

    @Test
    void pausableCallInFinallyOnEveryPath() {
        // Normal, caught, and propagating through finally.
        check(new int[] {4, 1, -5, 2, 0, 3}, "4f1,!s-5f2,f3Uu,", ExceptionsTest::pauseInFinally);
    }

    @Pausable
    static String nestedInCatch(Source in) {
        String out = "";
        for (int k = 0; k < 2; k++) {
            try {
                int v = in.next();
                if (v > 5) {
                    throw new IllegalArgumentException("big" + v);
                }
                out += "small";
            } catch (IllegalArgumentException e) {
                try {
                    int w = in.next();
                    if (w == 0) {
                        throw new IllegalStateException("inner");
                    }
                    out += w;
                } catch (IllegalStateException e2) {
                    out += e.getMessage() + e2.getMessage() + in.next();
                } finally {
                    out += "F" + in.next();
                }
            }
            out += ";";
        }
        return out;
    }

    @Test
    void nestedTryCatchFinallyInsideCatch() {
        check(new int[] {9, 0, 3, 4, 7, 2, 5}, "big9inner3F4;2F5;", ExceptionsTest::nestedInCatch);
    }

    static final class Oops extends Exception {
        private static final long serialVersionUID = 1L;

        Oops(int v) {
            super("oops" + v);
        }
    }

    static void fail(int v) throws Exception {
        switch (v) {
            case 0:
                throw new IOException("io");
            case 1:
                throw new IllegalArgumentException("iae");
            case 2:
                throw new IllegalStateException("ise");
            case 3:
                int zero = v - 3;
                System.out.print(1 / zero);
                break;
            case 4:
                throw new Oops(4);
            case 5:
                Integer.parseInt("x" + v);
                break;
            default:
        }
    }

    @Pausable
    static String rightClause(Source in) {
        StringBuilder out = new StringBuilder();
        for (int k = 0; k < 7; k++) {
            long mark = k * 10L;
            try {
                int v = in.next();
                fail(v);
                out.append("ok");
            } catch (IOException e) {
                out.append("IO").append(mark);
            } catch (NumberFormatException e) {
                out.append("NF").append(mark);
            } catch (IllegalArgumentException | IllegalStateException e) {
                out.append("A").append(e.getClass().getSimpleName()).append(mark);
            } catch (ArithmeticException e) {
                out.append("Ar").append(mark);
            } catch (Exception e) {
                out.append("E").append(e.getMessage()).append(mark);
            }
            out.append(',');
        }
        return out.toString();
    }

    @Test
    void rightCatchClauseAfterResume() {
        String expected = "IO0,AIllegalArgumentException10,AIllegalStateException20,Ar30,Eoops440,NF50,ok,";
        check(new int[] {0, 1, 2, 3, 4, 5, 6}, expected, ExceptionsTest::rightClause);
    }

    @Pausable
    static String localsInHandler(Source in) {
        long l = in.nextLong();
        double d = in.nextDouble();
        String s = "pre";
        int[] arr = {1};
        char c = 'c';
        try {
            int v = in.next();
            l += v;
            arr[0] = v;
            s = s + v;
            c++;
            if (v > 3) {
                throw new IllegalStateException("v" + v);
            }
            d = -1;
        } catch (IllegalStateException e) {
            return l + "|" + d + "|" + s + "|" + arr[0] + "|" + c + "|" + e.getMessage();
        }
        return "none" + d;
    }

    @Test
    void localsUsedInHandlerAfterPostResumeThrow() {
        String expected = (Source.wide(1) + 9) + "|" + Source.fraction(2) + "|pre9|9|d|v9";
        check(new int[] {1, 2, 9}, expected, ExceptionsTest::localsInHandler);
        check(new int[] {1, 2, 3}, "none-1.0", ExceptionsTest::localsInHandler);
    }

    @Pausable
    static long catchThrowable(Source in) {
        int caught = 0;
        int spurious = 0;
        long sum = 0;
        for (int k = 0; k < 6; k++) {
            try {
                int v = in.next();
                if (v % 3 == 0) {
                    throw new Error("e" + v);
                }
                sum += v;
            } catch (Throwable t) {
                caught++;
            }
            try {
                sum += in.next() * 1000L;
            } catch (Throwable t) {
                spurious++;
            }
        }
        return sum * 10_000 + caught * 100 + spurious;
    }

    @Test
    void catchThrowableSeesOnlyRealExceptions() {
        int[] in = {1, 1, 3, 2, 4, 3, 6, 4, 7, 5, 9, 6};
        long sum = 1 + 4 + 7 + (1 + 2 + 3 + 4 + 5 + 6) * 1000L;
        check(in, sum * 10_000 + 3 * 100, ExceptionsTest::catchThrowable);
    }

    @Pausable
    static String finallyOnce(Source in) {
        int finals = 0;
        long sum = 0;
        for (int k = 0; k < 6; k++) {
            try {
                int v = in.next();
                if (v == 0) {
                    continue;
                }
                if (v < 0) {
                    break;
                }
                sum += v + in.next();
            } finally {
                finals++;
            }
        }
        int inner = 0;
        try {
            try {
                sum += in.next();
            } finally {
                inner++;
                sum += in.next();
            }
        } finally {
            inner += 10;
        }
        return sum + ":" + finals + ":" + inner;
    }

    @Test
    void finallyRunsExactlyOnceAcrossPauses() {
        // 2+3, continue, 4+5, break (4 finals); then 6 and 7.
        check(new int[] {2, 3, 0, 4, 5, -1, 6, 7}, (2 + 3 + 4 + 5 + 6 + 7) + ":4:11", ExceptionsTest::finallyOnce);
    }

    static final class Resource implements AutoCloseable {
        private final StringBuilder log;
        private final int id;
        private final boolean failOnClose;

        Resource(StringBuilder log, int id, boolean failOnClose) {
            this.log = log;
            this.id = id;
            this.failOnClose = failOnClose;
            log.append("open").append(id).append(' ');
        }

        @Override
        public void close() {
            log.append("close").append(id).append(' ');
            if (failOnClose) {
                throw new IllegalStateException("close" + id);
            }
        }
    }

    @Pausable
    @SuppressWarnings("try")
    static String tryWithResources(Source in) {
        StringBuilder log = new StringBuilder();
        for (int k = 0; k < 3; k++) {
            try (Resource a = new Resource(log, in.next(), false);
                    Resource b = new Resource(log, in.next(), k == 2)) {
                int v = in.next();
                log.append("body").append(v).append(' ');
                if (v < 0) {
                    throw new IllegalArgumentException("body" + v);
                }
            } catch (IllegalArgumentException e) {
                log.append("caught:").append(e.getMessage()).append(":").append(e.getSuppressed().length).append(' ');
            } catch (IllegalStateException e) {
                log.append("closeFailed:").append(e.getMessage()).append(' ');
            }
        }
        return log.toString().trim();
    }

    @Test
    void tryWithResourcesClosesOnce() {
        String expected = "open1 open2 body3 close2 close1 "
                + "open4 open5 body-6 close5 close4 caught:body-6:0 "
                + "open7 open8 body-9 close8 close7 caught:body-9:1";
        check(new int[] {1, 2, 3, 4, 5, -6, 7, 8, -9}, expected, ExceptionsTest::tryWithResources);
    }

    static final class ScenarioFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ScenarioFailure(String message) {
            super(message);
        }
    }

    @Pausable
    static int throwsAfterResume(Source in) {
        int v = in.next();
        long l = in.nextLong();
        if (v > 0) {
            throw new ScenarioFailure("bad " + v + " " + l);
        }
        return v;
    }

    @Test
    void exceptionAfterResumeKeepsTypeMessageAndStack() {
        checkThrows(new int[] {3, 4}, ScenarioFailure.class, "bad 3 " + Source.wide(4), "throwsAfterResume",
                ExceptionsTest::throwsAfterResume);
    }

    @Pausable
    static int deepThrower(Source in) {
        double d = in.nextDouble();
        if (d > 1) {
            throw new UnsupportedOperationException("deep " + d);
        }
        return 0;
    }

    @Pausable
    static int callsDeepThrower(Source in) {
        int before = in.next();
        return before + deepThrower(in);
    }

    @Test
    void exceptionFromDeeperFrameAfterResume() {
        checkThrows(new int[] {1, 80}, UnsupportedOperationException.class, "deep " + Source.fraction(80),
                "deepThrower", ExceptionsTest::callsDeepThrower);
        checkThrows(new int[] {1, 80}, UnsupportedOperationException.class, "deep " + Source.fraction(80),
                "callsDeepThrower", ExceptionsTest::callsDeepThrower);
    }

    @Pausable
    static int level3(Source in) {
        int v = in.next();
        if (v < 0) {
            throw new IllegalArgumentException("L3:" + v);
        }
        return v;
    }

    @Pausable
    static int level2(Source in) {
        long pad = in.nextLong();
        return (int) (level3(in) + pad % 7);
    }

    @Pausable
    static int level1(Source in) {
        String tag = "t";
        try {
            return level2(in) * 2;
        } catch (IllegalArgumentException e) {
            return -1000 + in.next() + tag.length() + e.getMessage().length();
        }
    }

    @Pausable
    static String throughWovenFrames(Source in) {
        String out = "";
        for (int k = 0; k < 3; k++) {
            out += level1(in) + ",";
        }
        return out;
    }

    @Test
    void exceptionPropagatesThroughWovenFramesToCatch() {
        int[] in = {10, 3, 11, -4, 50, 12, 5};
        String expected = (int) (3 + Source.wide(10) % 7) * 2 + "," + (-1000 + 50 + 1 + "L3:-4".length()) + ","
                + (int) (5 + Source.wide(12) % 7) * 2 + ",";
        check(in, expected, ExceptionsTest::throughWovenFrames);
    }

    static final class Negative extends Exception {
        private static final long serialVersionUID = 1L;
        final int value;

        Negative(int value) {
            super("negative " + value);
            this.value = value;
        }
    }

    @Pausable
    static int positive(Source in) throws Negative {
        int v = in.next();
        if (v < 0) {
            throw new Negative(v);
        }
        return v;
    }

    @Pausable
    static String checkedException(Source in) {
        String out = "";
        for (int k = 0; k < 3; k++) {
            try {
                out += positive(in);
            } catch (Negative e) {
                out += "(" + e.value + ")";
            }
        }
        return out;
    }

    @Test
    void checkedExceptionFromPausableCallee() {
        check(new int[] {1, -2, 3}, "1(-2)3", ExceptionsTest::checkedException);
    }

    @Pausable
    static String rethrowFromCatch(Source in) {
        try {
            try {
                int v = in.next();
                throw new IllegalStateException("first" + v);
            } catch (IllegalStateException e) {
                int w = in.next();
                throw new RuntimeException("wrapped" + w, e);
            }
        } catch (RuntimeException e) {
            return e.getMessage() + "/" + e.getCause().getMessage() + "/" + in.next();
        }
    }

    @Test
    void throwFromCatchAfterPause() {
        check(new int[] {1, 2, 3}, "wrapped2/first1/3", ExceptionsTest::rethrowFromCatch);
    }

    @Pausable
    @SuppressWarnings("finally")
    static int finallyReturns(Source in) {
        try {
            int v = in.next();
            if (v > 0) {
                throw new IllegalStateException("lost");
            }
            return v;
        } finally {
            return in.next() * 2;
        }
    }

    @Test
    void returnInFinallyReplacesExceptionAfterPause() {
        check(new int[] {5, 21}, 42, ExceptionsTest::finallyReturns);
    }
}
