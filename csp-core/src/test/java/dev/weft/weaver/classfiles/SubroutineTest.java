package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.weaver.Weaver;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Class files older than version 50 may hold subroutines (JSR/RET), as javac 1.4 wrote for finally blocks.
 * The engine inlines them: the woven class has none, keeps its version, verifies, and runs each finally
 * exactly as often as the original bytecode does, although every finally pauses on a channel read.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SubroutineTest {
    private static final String BINARY_NAME = SubroutineClass.NAME.replace('/', '.');

    @TempDir
    Path dir;

    /** What {@code compute} returns, how often each subroutine ran, and how many values it read. */
    record Outcome(int result, int finallyRuns, int nestedRuns, int reads) {
    }

    /** The meaning of {@code compute} (see {@link SubroutineClass}), worked out in plain Java. */
    static Outcome model(int[] feed, int n) {
        int k = 0;
        int sum = 0;
        int runs = 0;
        int nested = 0;
        for (int i = 0; i < n; i++) {
            int v = feed[k++];
            boolean threw = v < 0;
            if (!threw) {
                sum += v;
            }
            runs++;
            nested++;
            sum += 100000 * feed[k++];
            sum += 1000 * feed[k++];
            if (threw) {
                sum += 1000000;
            } else if (v == 99) {
                return new Outcome(sum, runs, nested, k);
            }
        }
        return new Outcome(sum, runs, nested, k);
    }

    static Stream<Arguments> runs() {
        int[] earlyReturn = {5, 1, 2, -1, 3, 4, 7, 5, 6, 99, 7, 8};
        int[] throwsOnce = {1, 1, 1, -2, 2, 2, 3, 3, 3};
        return Stream.of(Opcodes.V1_1, Opcodes.V1_4, Opcodes.V1_5).flatMap(version -> Stream.of(
                Arguments.of(version, earlyReturn, 6),
                Arguments.of(version, throwsOnce, 3),
                Arguments.of(version, new int[0], 0)));
    }

    private byte[] weave(byte[] input) {
        Path in = ClassFiles.write(dir.resolve("in"), Map.of(SubroutineClass.NAME, input));
        return new Weaver(ClassFiles.classPath(in)).weave(input);
    }

    private URLClassLoader loader(String name, byte[] classFile) {
        return ClassFiles.loader(ClassFiles.write(dir.resolve(name), Map.of(SubroutineClass.NAME, classFile)));
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {Opcodes.V1_1, Opcodes.V1_4, Opcodes.V1_5})
    void subroutinesAreInlinedAndTheVersionIsKept(int version) {
        byte[] input = SubroutineClass.generate(version);
        assertEquals(4, count(input, Opcodes.JSR), "the generated class has its subroutines");
        assertEquals(2, count(input, Opcodes.RET));

        byte[] woven = weave(input);

        assertTrue(Weaver.isWoven(woven));
        assertEquals(0, count(woven, Opcodes.JSR), "no JSR left");
        assertEquals(0, count(woven, Opcodes.RET), "no RET left");
        assertEquals(version, new ClassReader(woven).readInt(4), "minor and major version kept");
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {Opcodes.V1_1, Opcodes.V1_4, Opcodes.V1_5})
    void theWovenClassVerifiesAndLinks(int version) throws Exception {
        byte[] woven = weave(SubroutineClass.generate(version));
        try (URLClassLoader loader = loader("woven", woven)) {
            assertEquals(List.of(), BytecodeCheck.problems(Map.of(SubroutineClass.NAME, woven), loader));
        }
    }

    @ParameterizedTest(name = "version {0}, n = {2}")
    @MethodSource("runs")
    void runsAsAFiberReadingFromAnotherFiber(int version, int[] feed, int n) throws Exception {
        Outcome expected = model(feed, n);
        int[] counts = new int[2];
        One2OneChannel<Integer> ch = Channel.one2one();
        try (URLClassLoader loader = loader("woven", weave(SubroutineClass.generate(version)))) {
            Class<?> c = loader.loadClass(BINARY_NAME);
            CSProcess program = (CSProcess) c.getConstructor(ChannelInput.class, int[].class, int.class)
                    .newInstance(ch.in(), counts, n);

            try (Scheduler s = Scheduler.singleThreaded()) {
                Weft.run(s, () -> {
                    Weft.spawn(() -> {
                        for (int k = 0; k < expected.reads(); k++) {
                            ch.out().write(feed[k]);
                        }
                    });
                    program.run();
                });
            }

            // Weft.run ended, so the writer wrote every value: compute read exactly expected.reads() of them.
            assertEquals(expected, new Outcome(c.getField("result").getInt(program), counts[0], counts[1],
                    expected.reads()));
        }
    }

    @ParameterizedTest(name = "version {0}, n = {2}")
    @MethodSource("runs")
    void runsInThreadModeAsTheUnwovenOriginalDoes(int version, int[] feed, int n) throws Exception {
        byte[] original = SubroutineClass.generate(version);
        Outcome unwoven = computeOnThisThread(loader("unwoven", original), feed, n);
        Outcome woven = computeOnThisThread(loader("woven", weave(original)), feed, n);

        assertEquals(model(feed, n), unwoven, "the generated bytecode means what the model says");
        assertEquals(unwoven, woven);
    }

    /** Calls {@code compute} on this plain thread, a writer thread feeding it; checks every value is taken. */
    private static Outcome computeOnThisThread(URLClassLoader loader, int[] feed, int n) throws Exception {
        int reads = model(feed, n).reads();
        One2OneChannel<Integer> ch = Channel.one2one();
        Thread writer = new Thread(() -> {
            for (int k = 0; k < reads; k++) {
                ch.out().write(feed[k]);
            }
        });
        writer.setDaemon(true);
        writer.start();
        int[] counts = new int[2];
        try (loader) {
            int result = (int) loader.loadClass(BINARY_NAME).getMethod("compute", ChannelInput.class, int[].class,
                    int.class).invoke(null, ch.in(), counts, n);
            writer.join(30_000);
            assertFalse(writer.isAlive(), "compute read fewer values than the writer offered");
            return new Outcome(result, counts[0], counts[1], reads);
        }
    }

    private static int count(byte[] classFile, int opcode) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, 0);
        int n = 0;
        for (MethodNode m : cn.methods) {
            for (AbstractInsnNode insn : m.instructions) {
                n += insn.getOpcode() == opcode ? 1 : 0;
            }
        }
        return n;
    }
}
