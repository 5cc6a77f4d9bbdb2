package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One method with {@value #LOCALS} long locals live across most of its {@value #SITES} pauses: saved and
 * restored at every site, it was too large once woven (75,828 bytes of code). Sites that save the same locals
 * now share that code; the method weaves, verifies and computes what it computes unwoven.
 */
@Timeout(60)
class ManyLongsAcrossManyPausesTest {
    private static final int LOCALS = 40;
    private static final int SITES = 120;

    @TempDir
    Path dir;

    @Test
    void weavesVerifiesAndRunsAsAFiberAndOnAThread() throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17, Map.of("big.Big", source()));
        Map<String, byte[]> woven = ClassFiles.weave(ClassFiles.read(classes), classes);
        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            Class<?> big = loader.loadClass("big.Big");
            long[] result = new long[1];
            CSProcess program = (CSProcess) big.getMethod("program", long[].class).invoke(null, (Object) result);
            try (Scheduler s = Scheduler.singleThreaded()) {
                Weft.run(s, program);
            }
            assertEquals(expected(), result[0], "as a fiber");
            Method onThread = big.getMethod("onThread");
            assertEquals(expected(), onThread.invoke(null), "on a thread");
        }
    }

    /** {@code run} reads LOCALS values into v0..v39, then folds SITES more into them, reading 1, 2, 3, ... */
    private static String source() {
        StringBuilder b = new StringBuilder("""
                package big;

                import dev.weft.csp.CSProcess;
                import dev.weft.csp.Channel;
                import dev.weft.csp.ChannelInput;
                import dev.weft.csp.One2OneChannel;
                import dev.weft.csp.Pausable;
                import dev.weft.csp.Weft;

                public class Big {
                    public static CSProcess program(long[] result) {
                        return () -> {
                            One2OneChannel<Long> c = Channel.one2one();
                            Weft.spawn(() -> write(c));
                            result[0] = run(c.in());
                        };
                    }

                    public static long onThread() throws InterruptedException {
                        One2OneChannel<Long> c = Channel.one2one();
                        Thread writer = new Thread(() -> write(c));
                        writer.start();
                        long r = run(c.in());
                        writer.join();
                        return r;
                    }

                    @Pausable
                    static void write(One2OneChannel<Long> c) {
                        for (long i = 1; i <= %d; i++) {
                            c.out().write(i);
                        }
                    }

                    @Pausable
                    static long run(ChannelInput<Long> in) {
                """.formatted(LOCALS + SITES));
        for (int i = 0; i < LOCALS; i++) {
            b.append("        long v").append(i).append(" = in.read();\n");
        }
        for (int s = 0; s < SITES; s++) {
            b.append("        v").append(s % LOCALS).append(" = v").append(s % LOCALS).append(" * 31 + in.read();\n");
        }
        b.append("        return 0");
        for (int i = 0; i < LOCALS; i++) {
            b.append(" + v").append(i).append(" * ").append(i + 1);
        }
        return b.append(";\n    }\n}\n").toString();
    }

    /** What {@code run} returns, worked out here. */
    private static long expected() {
        long[] v = new long[LOCALS];
        long next = 1;
        for (int i = 0; i < LOCALS; i++) {
            v[i] = next++;
        }
        for (int s = 0; s < SITES; s++) {
            v[s % LOCALS] = v[s % LOCALS] * 31 + next++;
        }
        long r = 0;
        for (int i = 0; i < LOCALS; i++) {
            r += v[i] * (i + 1);
        }
        return r;
    }
}
