package dev.weft.weaver.errors;

import static dev.weft.weaver.errors.Snippets.compile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.weaver.WeaveException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Class files of several versions and extreme sizes: woven output keeps its version and loads, or is refused. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClassFileShapesTest {
    @TempDir
    Path out;

    /** A private pausable method used by an inner class (accessors before Java 11, nestmates after) and a lambda. */
    private static final String OUTER = "package snip;\n"
            + "import dev.weft.csp.*;\n"
            + "public class Outer implements CSProcess {\n"
            + "    private final ChannelInput<Integer> in;\n"
            + "    private final ChannelOutput<Integer> out;\n"
            + "    private int total;\n"
            + "    public Outer(ChannelInput<Integer> in, ChannelOutput<Integer> out) {\n"
            + "        this.in = in;\n"
            + "        this.out = out;\n"
            + "    }\n"
            + "    @Pausable\n"
            + "    private int take() {\n"
            + "        total += in.read();\n"
            + "        return total;\n"
            + "    }\n"
            + "    final class Inner {\n"
            + "        @Pausable\n"
            + "        int twice() {\n"
            + "            return take() + take();\n"
            + "        }\n"
            + "    }\n"
            + "    @Override\n"
            + "    @Pausable\n"
            + "    public void run() {\n"
            + "        Inner inner = new Inner();\n"
            + "        for (int i = 0; i < 2; i++) {\n"
            + "            out.write(inner.twice());\n"
            + "        }\n"
            + "        CSProcess p = () -> out.write(take() * 100);\n"
            + "        p.run();\n"
            + "    }\n"
            + "}\n";

    static Stream<Integer> releases() {
        return new TreeSet<>(List.of(8, 11, 17, Runtime.version().feature())).stream();
    }

    @ParameterizedTest(name = "--release {0}")
    @MethodSource("releases")
    void wovenClassKeepsItsVersionAndRuns(int release) throws Exception {
        compile(out, release, Map.of("Outer", OUTER));
        Map<String, byte[]> woven = Snippets.weaveAll(out);
        for (Map.Entry<String, byte[]> e : woven.entrySet()) {
            assertEquals(44 + release, Snippets.majorVersion(e.getValue()), e.getKey() + " keeps its version");
        }
        Class<?> outer = new Snippets.BytesLoader(woven).loadClass("snip.Outer");
        One2OneChannel<Integer> toOuter = Channel.one2one();
        One2OneChannel<Integer> fromOuter = Channel.one2one();
        CSProcess p = (CSProcess) outer.getConstructor(ChannelInput.class, ChannelOutput.class)
                .newInstance(toOuter.in(), fromOuter.out());
        List<Integer> results = new ArrayList<>();
        Thread feeder = new Thread(new Runnable() {
            @Override
            public void run() {
                int next = 1;
                for (int round = 0; round < 2; round++) {
                    toOuter.out().write(next++);
                    toOuter.out().write(next++);
                    results.add(fromOuter.in().read());
                }
                toOuter.out().write(next);
                results.add(fromOuter.in().read());
            }
        });
        feeder.setDaemon(true);
        feeder.start();
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, p);
        } finally {
            toOuter.in().poison();
            fromOuter.out().poison();
            feeder.join(5_000);
        }
        // take(): 1, 3 -> 4; 6, 10 -> 16; lambda: 15 * 100.
        assertEquals(List.of(4, 16, 1500), results);
    }

    /** A pausable method whose parameters fill all 255 slots: the woven form cannot add the fiber. */
    @Test
    void pausableMethodWithEveryParameterSlotUsed() throws Exception {
        StringBuilder params = new StringBuilder("ChannelInput<Integer> in");
        for (int i = 1; i < 255; i++) {
            params.append(", int p").append(i);
        }
        String src = "package snip;\n"
                + "import dev.weft.csp.*;\n"
                + "public class Wide {\n"
                + "    @Pausable\n"
                + "    public static int sum(" + params + ") {\n"
                + "        return in.read() + p1 + p254;\n"
                + "    }\n"
                + "}\n";
        compile(out, Map.of("Wide", src));
        refusedClearlyOrLoads("snip.Wide");
    }

    /** A method near the 64 KiB limit whose woven form cannot fit. */
    @Test
    void methodTooLargeOnceWoven() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 2500; i++) {
            body.append("        s += in.read();\n");
        }
        String src = "package snip;\n"
                + "import dev.weft.csp.*;\n"
                + "public class Huge {\n"
                + "    @Pausable\n"
                + "    public static int sum(ChannelInput<Integer> in) {\n"
                + "        int s = 0;\n"
                + body
                + "        return s;\n"
                + "    }\n"
                + "}\n";
        compile(out, Map.of("Huge", src));
        refusedClearlyOrLoads("snip.Huge");
    }

    /** Either a {@link WeaveException} that names the method, or a woven class that the JVM accepts. */
    private void refusedClearlyOrLoads(String className) throws Exception {
        byte[] original = Files.readAllBytes(out.resolve(className.replace('.', '/') + ".class"));
        byte[] woven;
        try {
            woven = Snippets.weaver(out).weave(original);
        } catch (WeaveException e) {
            assertTrue(e.errors().stream().anyMatch(err -> err.method().contains("sum")),
                    () -> "the error names the method: " + e.errors());
            return;
        } catch (RuntimeException e) {
            throw new AssertionError("expected a WeaveException or a loadable class, got " + e, e);
        }
        try {
            Class<?> c = new Snippets.BytesLoader(Map.of(className, woven)).loadClass(className);
            c.getDeclaredMethods();
        } catch (LinkageError e) {
            fail("the weaver produced a class the JVM refuses: " + e, e);
        }
    }
}
