package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.abi.PauseSite;
import dev.weft.csp.abi.SavedRefs;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Each pausable call of woven code saves one constant {@code PauseSite}: an {@code invokedynamic} from class
 * file version 51 (Java 7) on, a map lookup in older class files. A method with many calls, one a line, runs
 * as javac 8 compiled it (version 52) and marked as versions 51, 50 and 49 (the same bytecode that an older
 * javac writes for it): every pause shows its own line, every resume comes back to its own call, and a corrupt
 * resume point still throws.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PauseSitesTest {
    private static final String NAME = "ps/Sites";
    private static final String BINARY_NAME = "ps.Sites";
    private static final int CALLS = 150;

    @TempDir
    static Path dir;
    private static byte[] compiled;
    /** The source line of each call to {@code read} in {@code sum}, by resume point. */
    private static final int[] LINES = new int[CALLS];

    @BeforeAll
    static void compile() {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 8, Map.of(BINARY_NAME, source()));
        compiled = ClassFiles.read(classes).get(NAME);
        assertEquals(52, ClassFiles.major(compiled));
    }

    /** {@code sum} folds one value read per line into a long that is on the stack at each read. */
    private static String source() {
        List<String> lines = new ArrayList<>(List.of(
                "package ps;",
                "",
                "import dev.weft.csp.CSProcess;",
                "import dev.weft.csp.ChannelInput;",
                "import dev.weft.csp.Pausable;",
                "",
                "public final class Sites implements CSProcess {",
                "    private final ChannelInput<Integer> in;",
                "    public long result;",
                "",
                "    public Sites(ChannelInput<Integer> in) {",
                "        this.in = in;",
                "    }",
                "",
                "    @Pausable",
                "    public void run() {",
                "        result = sum(in);",
                "    }",
                "",
                "    @Pausable",
                "    static long sum(ChannelInput<Integer> in) {",
                "        long s = 0;"));
        for (int k = 0; k < CALLS; k++) {
            lines.add("        s = s * 31 + in.read();");
            LINES[k] = lines.size();
        }
        lines.addAll(List.of("        return s;", "    }", "}"));
        return String.join("\n", lines) + "\n";
    }

    private static long model(int[] feed) {
        long s = 0;
        for (int v : feed) {
            s = s * 31 + v;
        }
        return s;
    }

    private static int[] feed(int seed) {
        int[] feed = new int[CALLS];
        for (int k = 0; k < CALLS; k++) {
            feed[k] = (k + 1) * 7919 + seed;
        }
        return feed;
    }

    /** The compiled class marked as class file version {@code major}. */
    private static byte[] asVersion(int major) {
        byte[] b = compiled.clone();
        b[6] = (byte) (major >> 8);
        b[7] = (byte) major;
        return b;
    }

    private static byte[] woven(int major) {
        byte[] input = asVersion(major);
        Path in = ClassFiles.write(dir.resolve("in" + major), Map.of(NAME, input));
        return ClassFiles.weave(Map.of(NAME, input), in).get(NAME);
    }

    private static URLClassLoader loader(String name, byte[] classFile) {
        return ClassFiles.loader(ClassFiles.write(dir.resolve(name), Map.of(NAME, classFile)));
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {49, 50, 51, 52})
    void sitesComeFromInvokedynamicFromJava7OnAndFromALookupBefore(int major) throws Exception {
        byte[] woven = woven(major);
        assertEquals(major, ClassFiles.major(woven), "the version is kept");
        int indys = 0;
        int lookups = 0;
        ClassNode cn = new ClassNode();
        new ClassReader(woven).accept(cn, 0);
        for (MethodNode m : cn.methods) {
            for (AbstractInsnNode i : m.instructions) {
                if (i instanceof InvokeDynamicInsnNode
                        && ((InvokeDynamicInsnNode) i).bsm.getOwner().equals("dev/weft/csp/abi/PauseSite")) {
                    indys++;
                } else if (i instanceof MethodInsnNode && ((MethodInsnNode) i).owner.equals("dev/weft/csp/abi/PauseSite")
                        && ((MethodInsnNode) i).name.equals("of")) {
                    lookups++;
                }
            }
        }
        // sum's calls, and run's call of sum
        assertEquals(major >= Opcodes.V1_7 ? CALLS + 1 : 0, indys, "invokedynamic sites");
        assertEquals(major >= Opcodes.V1_7 ? 0 : CALLS + 1, lookups, "looked-up sites");
        try (URLClassLoader loader = loader("verify" + major, woven)) {
            assertEquals(List.of(), BytecodeCheck.problems(Map.of(NAME, woven), loader));
        }
    }

    /** On one carrier: at each read the reader's dump shows that read's line, and the sum comes out right. */
    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {49, 50, 51, 52})
    void everyCallPausesAtItsOwnLineAndResumesThere(int major) throws Exception {
        int[] feed = feed(major);
        try (URLClassLoader loader = loader("run" + major, woven(major)); Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one();
            CSProcess program = newSites(loader, ch.in());
            Weft.run(s, () -> {
                Fiber reader = Weft.spawn(program);
                for (int k = 0; k < CALLS; k++) {
                    String at = "ps.Sites.sum(Sites.java:" + LINES[k] + ")";
                    awaitPausedAt(reader, at);
                    String[] sites = reader.pauseSites();
                    assertTrue(sites[0].startsWith("dev.weft.csp."), "innermost first: " + Arrays.toString(sites));
                    assertTrue(Arrays.asList(sites).contains("ps.Sites.run(Sites.java:17)"), Arrays.toString(sites));
                    ch.out().write(feed[k]);
                }
                reader.join();
            });
            assertEquals(model(feed), program.getClass().getField("result").getLong(program));
        }
    }

    /** On two carriers, many times over: each run reads every value once, in order. */
    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {49, 52})
    void manyRunsOnTwoCarriers(int major) throws Exception {
        try (URLClassLoader loader = loader("many" + major, woven(major)); Scheduler s = Scheduler.create(2)) {
            for (int run = 0; run < 40; run++) {
                int[] feed = feed(run);
                One2OneChannel<Integer> ch = Channel.one2one();
                CSProcess program = newSites(loader, ch.in());
                Weft.run(s, () -> {
                    Fiber reader = Weft.spawn(program);
                    for (int v : feed) {
                        ch.out().write(v);
                    }
                    reader.join();
                });
                assertEquals(model(feed), program.getClass().getField("result").getLong(program), "run " + run);
            }
        }
    }

    /**
     * A resume point that is none of the method's calls (here put in place of the real one while the fiber
     * waits) makes the woven dispatcher throw rather than resume somewhere.
     */
    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {49, 52})
    void aCorruptResumePointThrows(int major) throws Exception {
        try (URLClassLoader loader = loader("corrupt" + major, woven(major)); Scheduler s = Scheduler.singleThreaded()) {
            One2OneChannel<Integer> ch = Channel.one2one();
            CSProcess program = newSites(loader, ch.in());
            String at = "ps.Sites.sum(Sites.java:" + LINES[3] + ")";
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                Fiber reader = Weft.spawn(program);
                for (int k = 0; k < 3; k++) {
                    ch.out().write(k);
                }
                awaitPausedAt(reader, at);
                Object[] refs = SavedRefs.of(reader); // each frame's references, then its site
                int slot = 0;
                while (!(refs[slot] instanceof PauseSite && refs[slot].toString().equals(at))) {
                    slot++;
                }
                refs[slot] = PauseSite.of(at, CALLS + 7, ((PauseSite) refs[slot]).refs());
                ch.out().write(3);
                reader.join();
            }));
            assertTrue(e.getMessage().startsWith("corrupt fiber state: resume point " + (CALLS + 7) + " of " + at
                    + " is none of the "), e.getMessage());
        }
    }

    private static CSProcess newSites(ClassLoader loader, ChannelInput<Integer> in) throws Exception {
        return (CSProcess) loader.loadClass(BINARY_NAME).getConstructor(ChannelInput.class).newInstance(in);
    }

    /**
     * Lets the other fibers of a single-threaded scheduler run until {@code reader} has paused at {@code site}:
     * a few turns suffice, as only the reader has anything to do.
     */
    @Pausable
    private static void awaitPausedAt(Fiber reader, String site) {
        for (int turn = 0; !Arrays.asList(reader.pauseSites()).contains(site); turn++) {
            if (reader.isDone()) {
                reader.join(); // rethrows what it threw
                throw new AssertionError("the reader ended before " + site);
            }
            if (turn == 100) {
                throw new AssertionError("the reader is not at " + site + ": " + Arrays.toString(reader.pauseSites()));
            }
            Fiber.yield();
        }
    }
}
