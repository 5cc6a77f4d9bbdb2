package dev.weft.weaver.errors;

import static dev.weft.weaver.errors.Snippets.compile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.weaver.Weaver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Properties of the engine on snippets: identity, idempotence, and woven output that loads and runs. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeaverPropertiesTest {
    @TempDir
    Path out;

    private static final String DOUBLER = "package snip;\n"
            + "import dev.weft.csp.*;\n"
            + "public class Doubler implements CSProcess {\n"
            + "    private final ChannelInput<Integer> in;\n"
            + "    private final ChannelOutput<Integer> out;\n"
            + "    public Doubler(ChannelInput<Integer> in, ChannelOutput<Integer> out) {\n"
            + "        this.in = in;\n"
            + "        this.out = out;\n"
            + "    }\n"
            + "    @Override\n"
            + "    @Pausable\n"
            + "    public void run() {\n"
            + "        long wide = 1L << 33;\n"
            + "        for (int i = 0; i < 3; i++) {\n"
            + "            int v = in.read();\n"
            + "            out.write((int) (wide + v * 2L - (1L << 33)) + i);\n"
            + "        }\n"
            + "    }\n"
            + "}\n";

    @Test
    void classWithoutPausableCodeIsReturnedAsIs() throws Exception {
        compile(out, Map.of("Plain", "package snip;\n"
                + "public class Plain {\n"
                + "    int add(int a, int b) {\n"
                + "        return a + b;\n"
                + "    }\n"
                + "    Runnable task() {\n"
                + "        return () -> System.out.println(add(1, 2));\n"
                + "    }\n"
                + "}\n"));
        byte[] plain = Files.readAllBytes(out.resolve("snip/Plain.class"));
        assertSame(plain, Snippets.weaver(out).weave(plain));
    }

    /** Thread-mode calls from plain code: under a monitor, and in a plain lambda, are not weave errors. */
    @Test
    void plainCodeMayCallPausableMethodsInThreadMode() throws Exception {
        compile(out, Map.of("Legacy", "package snip;\n"
                + "import dev.weft.csp.*;\n"
                + "import java.util.function.IntSupplier;\n"
                + "public class Legacy {\n"
                + "    public synchronized int locked(ChannelInput<Integer> in) {\n"
                + "        return in.read() * 2;\n"
                + "    }\n"
                + "    public int viaLambda(ChannelInput<Integer> in) {\n"
                + "        IntSupplier s = () -> in.read() + 1;\n"
                + "        synchronized (this) {\n"
                + "            return s.getAsInt();\n"
                + "        }\n"
                + "    }\n"
                + "}\n"));
        Class<?> legacy = new Snippets.BytesLoader(Snippets.weaveAll(out)).loadClass("snip.Legacy");
        Object o = legacy.getConstructor().newInstance();
        One2OneChannel<Integer> ch = Channel.one2one();
        Thread writer = new Thread(new Runnable() {
            @Override
            public void run() {
                ch.out().write(20);
                ch.out().write(30);
            }
        });
        writer.setDaemon(true);
        writer.start();
        assertEquals(40, legacy.getMethod("locked", ChannelInput.class).invoke(o, ch.in()));
        assertEquals(31, legacy.getMethod("viaLambda", ChannelInput.class).invoke(o, ch.in()));
        writer.join(5_000);
    }

    @Test
    void weavingIsIdempotent() throws Exception {
        compile(out, Map.of("Doubler", DOUBLER));
        byte[] original = Files.readAllBytes(out.resolve("snip/Doubler.class"));
        assertFalse(Weaver.isWoven(original));
        Weaver weaver = Snippets.weaver(out);
        byte[] once = weaver.weave(original);
        assertNotSame(original, once);
        assertTrue(Weaver.isWoven(once));
        assertSame(once, weaver.weave(once), "a woven class comes back untouched");
        assertSame(once, Snippets.weaver(out).weave(once), "also for a fresh engine");
    }

    @Test
    void wovenSnippetLoadsAndRunsAsFiberAndOnThread() throws Exception {
        compile(out, Map.of("Doubler", DOUBLER));
        ClassLoader loader = new Snippets.BytesLoader(Snippets.weaveAll(out));
        Class<?> doubler = loader.loadClass("snip.Doubler");

        // As a fiber.
        One2OneChannel<Integer> toDoubler = Channel.one2one();
        One2OneChannel<Integer> fromDoubler = Channel.one2one();
        CSProcess p = (CSProcess) doubler.getConstructor(ChannelInput.class, ChannelOutput.class)
                .newInstance(toDoubler.in(), fromDoubler.out());
        List<Integer> results = new ArrayList<>();
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                Weft.spawn(p);
                for (int i = 1; i <= 3; i++) {
                    toDoubler.out().write(i * 10);
                    results.add(fromDoubler.in().read());
                }
            });
        }
        assertEquals(List.of(20, 41, 62), results);

        // In thread mode, fed by a plain thread.
        One2OneChannel<Integer> a = Channel.one2one();
        One2OneChannel<Integer> b = Channel.one2one();
        CSProcess q = (CSProcess) doubler.getConstructor(ChannelInput.class, ChannelOutput.class)
                .newInstance(a.in(), b.out());
        List<Integer> fromThread = new ArrayList<>();
        Thread feeder = new Thread(new Runnable() {
            @Override
            public void run() {
                for (int i = 1; i <= 3; i++) {
                    a.out().write(i);
                    fromThread.add(b.in().read());
                }
            }
        });
        feeder.start();
        q.run();
        feeder.join(5_000);
        assertEquals(List.of(2, 5, 8), fromThread);
    }
}
