package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One method with many long locals live across many pauses. With {@value #LOCALS} locals saved and restored at
 * each of {@value #SITES} sites, it was too large once woven (75,828 bytes of code); sites that save the same
 * locals now share that code, and the pushes are out of line, in the class's synthetic {@code weft$save}
 * methods. A pause that saves more values than a method can take as parameters (255 slots) saves them inline.
 * Either way the method weaves, verifies and computes what it computes unwoven.
 */
@Timeout(60)
class ManyLongsAcrossManyPausesTest {
    private static final int LOCALS = 40;
    private static final int SITES = 120;

    @TempDir
    Path dir;

    @Test
    void weavesVerifiesAndRunsAsAFiberAndOnAThread() throws Exception {
        Class<?>[] save = weaveAndRun(LOCALS, LOCALS, SITES);
        assertTrue(save.length >= LOCALS, "saves out of line, up to " + LOCALS + " longs: " + save.length);
    }

    @Test
    void aPauseThatSavesMoreSlotsThanAMethodCanTakeSavesInline() throws Exception {
        Class<?>[] save = weaveAndRun(130, 1, 3); // 130 longs: 260 slots
        assertTrue(save.length < 130, "no save method takes the 130 longs: " + save.length + " parameters");
    }

    /** Weaves, checks and runs {@code run} (see {@link #source}); returns the widest save method's parameters. */
    private Class<?>[] weaveAndRun(int locals, int reads, int sites) throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17,
                Map.of("big.Big", source(locals, reads, sites)));
        Map<String, byte[]> woven = ClassFiles.weave(ClassFiles.read(classes), classes);
        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            Class<?> big = loader.loadClass("big.Big");
            long[] result = new long[1];
            CSProcess program = (CSProcess) big.getMethod("program", long[].class).invoke(null, (Object) result);
            try (Scheduler s = Scheduler.singleThreaded()) {
                Weft.run(s, program);
            }
            assertEquals(expected(locals, reads, sites), result[0], "as a fiber");
            Method onThread = big.getMethod("onThread");
            assertEquals(expected(locals, reads, sites), onThread.invoke(null), "on a thread");
            return Stream.of(big.getDeclaredMethods()).filter(m -> m.getName().equals("weft$save") && m.isSynthetic())
                    .map(Method::getParameterTypes).max(Comparator.comparingInt(p -> p.length))
                    .orElse(new Class<?>[0]);
        }
    }

    /**
     * {@code run} reads {@code reads} values into v0.., sets the other locals up to {@code locals} from v0, then
     * folds {@code sites} more reads into them, reading 1, 2, 3, ...
     */
    private static String source(int locals, int reads, int sites) {
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
                """.formatted(reads + sites));
        for (int i = 0; i < locals; i++) {
            b.append("        long v").append(i).append(i < reads ? " = in.read();\n" : " = v0 * " + i + ";\n");
        }
        for (int s = 0; s < sites; s++) {
            b.append("        v").append(s % locals).append(" = v").append(s % locals).append(" * 31 + in.read();\n");
        }
        b.append("        return 0");
        for (int i = 0; i < locals; i++) {
            b.append(" + v").append(i).append(" * ").append(i + 1);
        }
        return b.append(";\n    }\n}\n").toString();
    }

    /** What {@code run} returns, worked out here. */
    private static long expected(int locals, int reads, int sites) {
        long[] v = new long[locals];
        long next = 1;
        for (int i = 0; i < locals; i++) {
            v[i] = i < reads ? next++ : v[0] * i;
        }
        for (int s = 0; s < sites; s++) {
            v[s % locals] = v[s % locals] * 31 + next++;
        }
        long r = 0;
        for (int i = 0; i < locals; i++) {
            r += v[i] * (i + 1);
        }
        return r;
    }
}
