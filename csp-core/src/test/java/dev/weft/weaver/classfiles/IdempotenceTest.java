package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.Weaver;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.Opcodes;

/**
 * Weaving is idempotent: a woven class comes back as the very same array, and so does a class with nothing
 * to weave; weaving the same input twice gives the same bytes.
 */
@Timeout(60)
class IdempotenceTest {
    private static final String PAUSABLE = """
            package idem;

            import dev.weft.csp.CSProcess;
            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.ChannelOutput;
            import dev.weft.csp.Pausable;

            public class Relay {
                @Pausable
                public static void relay(ChannelInput<Integer> in, ChannelOutput<Integer> out, int n) {
                    for (int i = 0; i < n; i++) {
                        out.write(in.read() + 1);
                    }
                }

                public static CSProcess process(ChannelInput<Integer> in, ChannelOutput<Integer> out) {
                    return () -> relay(in, out, 3);
                }
            }
            """;
    private static final String NOTHING_TO_WEAVE = """
            package idem;

            public class Pojo {
                private final String name;
                private int count;

                public Pojo(String name) {
                    this.name = name;
                }

                public String name() {
                    return name;
                }

                public int increment() {
                    Runnable r = () -> count++;
                    r.run();
                    return count;
                }
            }
            """;
    private static final String USES_ONLY_PLAIN_API = """
            package idem;

            import dev.weft.csp.Channel;
            import dev.weft.csp.One2OneChannel;

            public class PoisonOnly {
                public static void poisonNew() {
                    One2OneChannel<String> ch = Channel.one2one();
                    ch.in().poison();
                }
            }
            """;

    @TempDir
    Path dir;

    private Path compile(int release, Map<String, String> sources) {
        return InMemoryJavac.compile(dir.resolve("classes" + release), release, sources);
    }

    private static Weaver weaver(Path classes) {
        return new Weaver(ClassFiles.classPath(classes));
    }

    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {8, 11, 17})
    void weavingAWovenClassReturnsTheVerySameArray(int release) throws IOException {
        Path classes = compile(release, Map.of("idem.Relay", PAUSABLE));
        byte[] input = ClassFiles.read(classes).get("idem/Relay");

        byte[] woven = weaver(classes).weave(input);
        assertNotSame(input, woven);
        assertTrue(Weaver.isWoven(woven));
        assertEquals(release + 44, ClassFiles.major(woven));
        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), Map.of("idem/Relay", woven)))) {
            assertEquals(List.of(), BytecodeCheck.problems(Map.of("idem/Relay", woven), loader));
        }

        assertSame(woven, weaver(classes).weave(woven), "a fresh engine");
        Weaver one = weaver(classes);
        byte[] again = one.weave(input);
        assertSame(again, one.weave(again), "the engine that wove it");
    }

    @Test
    void weavingAWovenClassWithSubroutinesReturnsTheVerySameArray() {
        byte[] input = SubroutineClass.generate(Opcodes.V1_4);
        Path classes = ClassFiles.write(dir.resolve("jsr"), Map.of(SubroutineClass.NAME, input));
        byte[] woven = weaver(classes).weave(input);

        assertSame(woven, weaver(classes).weave(woven));
    }

    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {8, 17})
    void aClassWithNoPausableCodeIsReturnedAsTheVerySameArray(int release) {
        Map<String, String> sources = new java.util.HashMap<>(Map.of("idem.Pojo", NOTHING_TO_WEAVE,
                "idem.PoisonOnly", USES_ONLY_PLAIN_API));
        if (release >= 16) {
            sources.put("idem.Point", "package idem; public record Point(int x, int y) { }");
            sources.put("idem.Color", "package idem; public enum Color { RED, GREEN; Color next() { return values()[(ordinal() + 1) % 2]; } }");
        }
        Path classes = compile(release, sources);
        Map<String, byte[]> compiled = ClassFiles.read(classes);
        assertEquals(sources.size(), compiled.size(), compiled.keySet().toString());

        Weaver weaver = weaver(classes);
        compiled.forEach((name, bytes) -> assertSame(bytes, weaver.weave(bytes), name));
    }

    @Test
    void everyClassOfCspCoreIsWovenAlreadyOrHasNothingToWeave() {
        Weaver weaver = new Weaver(ClassFiles.classPath(ClassFiles.coreClasses()));
        List<String> changed = new ArrayList<>();
        ClassFiles.read(ClassFiles.coreClasses()).forEach((name, bytes) -> {
            if (weaver.weave(bytes) != bytes) {
                changed.add(name);
            }
        });
        assertEquals(List.of(), changed, "weaving csp-core's woven classes again changed them");
    }

    @Test
    void weavingTheSameInputTwiceGivesTheSameBytes() {
        Path classes = compile(17, Map.of("idem.Relay", PAUSABLE));
        Map<String, byte[]> compiled = ClassFiles.read(classes);

        Map<String, byte[]> first = ClassFiles.weave(compiled, classes);
        Map<String, byte[]> second = ClassFiles.weave(compiled, classes);

        assertEquals(first.keySet(), second.keySet());
        first.forEach((name, bytes) -> assertArrayEquals(bytes, second.get(name), name));
    }
}
