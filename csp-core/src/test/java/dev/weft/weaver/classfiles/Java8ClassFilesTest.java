package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.weaver.Weaver;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java 8 class files (major 52), compiled by javac with --release 8: woven by the engine, they keep their
 * version, pass the verifiers, and run for real, as fibers on one or two carriers and in thread mode.
 */
@Timeout(60)
class Java8ClassFilesTest {
    private static final String PROGRAM = "j8.Java8Program";

    @TempDir
    static Path dir;
    private static Map<String, byte[]> compiled;
    private static Map<String, byte[]> woven;
    private static URLClassLoader loader;

    @BeforeAll
    static void compileAndWeave() {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 8,
                Map.of(PROGRAM, ClassFiles.resource("Java8Program.java.txt")));
        compiled = ClassFiles.read(classes);
        woven = ClassFiles.weave(compiled, classes);
        loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven));
    }

    @AfterAll
    static void closeLoader() throws IOException {
        loader.close();
    }

    @Test
    void wovenClassesKeepMajorVersion52() {
        compiled.forEach((name, bytes) -> assertEquals(52, ClassFiles.major(bytes), name + " as compiled"));
        woven.forEach((name, bytes) -> assertEquals(52, ClassFiles.major(bytes), name + " as woven"));
        for (String name : List.of("j8/Java8Program", "j8/Java8Program$Source", "j8/Java8Program$Scaler",
                "j8/Java8Program$1")) {
            assertTrue(Weaver.isWoven(woven.get(name)), name + " has pausable code and is woven");
            assertNotSame(compiled.get(name), woven.get(name), name);
        }
    }

    @Test
    void wovenClassesVerifyAndLink() {
        assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
    }

    @ParameterizedTest(name = "{0} carrier(s)")
    @ValueSource(ints = {1, 2})
    void runsAsFibers(int carriers) throws Exception {
        List<Object> results = Collections.synchronizedList(new ArrayList<>());
        CSProcess program = (CSProcess) loader.loadClass(PROGRAM).getMethod("program", List.class).invoke(null, results);

        try (Scheduler s = carriers == 1 ? Scheduler.singleThreaded() : Scheduler.create(carriers)) {
            Weft.run(s, program);
        }

        assertEquals(List.of(sumOfSquares(1, 10), guardedOk(4, 1.5, 40), guardedCaught(-2, 20, 30), 2,
                pairs(1, 2, 3, 4), commands(new String[] {"check", "add", "twice", "sub", "check"}, 5),
                (int) sumOfSquares(0, 4), 7 * 3 * 1.5), results);
    }

    @Test
    void runsInThreadMode() throws Exception {
        Object results = loader.loadClass(PROGRAM).getMethod("threadMode").invoke(null);

        assertEquals(List.of(sumOfSquares(1, 10), guardedCaught(-2, 20, 30), pairs(1, 2, 3, 4)), results);
    }

    @Test
    void theOriginalSignatureRunsOnTheCallingThread() throws Exception {
        Method sumSquares = loader.loadClass(PROGRAM).getMethod("sumSquares", ChannelInput.class, int.class);
        One2OneChannel<Integer> ch = Channel.one2one();
        Thread writer = new Thread(() -> {
            for (int i = 3; i <= 9; i++) {
                ch.out().write(i);
            }
        });
        writer.start();

        Object total = sumSquares.invoke(null, ch.in(), 7);

        writer.join();
        assertEquals(sumOfSquares(3, 9), total);
    }

    // ---- what the program computes, worked out here without running any woven code

    private static long sumOfSquares(long from, long to) {
        return LongStream.rangeClosed(from, to).map(i -> i * i).sum();
    }

    private static String guardedOk(int v, double scale, int last) {
        return "ok " + v * scale + " finally " + last;
    }

    private static String guardedCaught(int negative, int inCatch, int inFinally) {
        return "caught negative " + negative + " then " + inCatch + " finally " + inFinally;
    }

    /** Source.nextPair twice over a source that doubles a, b, c, d. */
    private static long pairs(int a, int b, int c, int d) {
        return (2L * a * 1000 + 2L * b) + (2L * c * 1000 + 2L * d);
    }

    /** Java8Program.commands over reads first, first + 1, ... */
    private static String commands(String[] cmds, int first) {
        int next = first;
        int acc = 0;
        int errors = 0;
        for (String cmd : cmds) {
            switch (cmd) {
                case "add" -> acc += next++;
                case "sub" -> acc -= next++;
                case "check" -> errors += next++ % 2 != 0 ? 1 : 0;
                default -> acc *= 2;
            }
        }
        return acc + "/" + errors + "/" + cmds.length;
    }
}
