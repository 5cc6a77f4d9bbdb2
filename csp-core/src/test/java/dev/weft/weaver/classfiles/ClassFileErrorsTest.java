package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.weaver.WeaveException;
import dev.weft.weaver.Weaver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Input the engine cannot weave: a class file newer than it supports asks for an upgrade; a truncated or
 * garbage class file is reported as such, always as a {@link WeaveException}, never as an internal error.
 */
@Timeout(60)
class ClassFileErrorsTest {
    private static final String PAUSABLE = """
            package errs;

            import dev.weft.csp.ChannelInput;
            import dev.weft.csp.Pausable;

            public class Reader {
                @Pausable
                public static int twice(ChannelInput<Integer> in) {
                    int first = in.read();
                    try {
                        return first + in.read();
                    } finally {
                        System.out.println("read two");
                    }
                }
            }
            """;
    private static final String PLAIN = """
            package errs;

            public class Plain {
                private int value;

                public int value() {
                    return value;
                }
            }
            """;

    @TempDir
    static Path dir;
    private static Weaver weaver;
    private static byte[] pausable;
    private static byte[] plain;

    @BeforeAll
    static void compile() {
        Path classes = InMemoryJavac.compile(dir, 17, Map.of("errs.Reader", PAUSABLE, "errs.Plain", PLAIN));
        weaver = new Weaver(ClassFiles.classPath(classes));
        Map<String, byte[]> compiled = ClassFiles.read(classes);
        pausable = compiled.get("errs/Reader");
        plain = compiled.get("errs/Plain");
        assertTrue(Weaver.isWoven(weaver.weave(pausable)), "the intact class weaves");
    }

    private static byte[] withMajor(byte[] classFile, int major) {
        byte[] patched = classFile.clone();
        patched[6] = (byte) (major >> 8);
        patched[7] = (byte) major;
        return patched;
    }

    private static WeaveException refused(byte[] input) {
        return assertThrows(WeaveException.class, () -> weaver.weave(input));
    }

    @ParameterizedTest(name = "major {0}")
    @ValueSource(ints = {80, 0x7fff})
    void aClassFileNewerThanTheWeaverSupportsAsksForAnUpgrade(int major) {
        for (byte[] input : List.of(withMajor(pausable, major), withMajor(plain, major))) {
            String message = refused(input).getMessage();
            assertTrue(message.contains("upgrade csp-weaver"), message);
            assertTrue(message.contains("version " + major), message);
        }
    }

    @Test
    void everyTruncationOfAClassFileIsReportedAsNotAValidClassFile() {
        List<String> wrong = new ArrayList<>();
        for (byte[] full : List.of(pausable, plain)) {
            for (int length = 0; length < full.length; length++) {
                byte[] input = Arrays.copyOf(full, length);
                try {
                    weaver.weave(input);
                    wrong.add(length + " of " + full.length + " bytes: woven without complaint");
                } catch (WeaveException e) {
                    if (!e.getMessage().contains("not a valid class file")) {
                        wrong.add(length + " of " + full.length + " bytes: " + e.getMessage());
                    }
                } catch (RuntimeException e) {
                    wrong.add(length + " of " + full.length + " bytes: " + e);
                }
            }
        }
        if (!wrong.isEmpty()) {
            fail(wrong.size() + " truncated class files not reported as invalid, e.g.:\n"
                    + String.join("\n", wrong.subList(0, Math.min(10, wrong.size()))));
        }
    }

    @Test
    void garbageIsReportedAsNotAValidClassFileRatherThanAsTooNew() {
        List<byte[]> garbage = new ArrayList<>();
        garbage.add(new byte[0]);
        garbage.add("this is not a class file, it is text".getBytes(StandardCharsets.UTF_8));
        garbage.add("PK\3\4 a zip, perhaps a jar, not a class".getBytes(StandardCharsets.UTF_8));
        Random random = new Random(42);
        for (int n : new int[] {3, 10, 64, 1000}) {
            byte[] b = new byte[n];
            random.nextBytes(b);
            garbage.add(b);
        }
        for (byte[] input : garbage) {
            String message = refused(input).getMessage();
            assertTrue(message.contains("not a valid class file"), message);
            assertFalse(message.contains("upgrade"), message);
        }
    }

    @Test
    void garbageBehindAValidHeaderIsReportedAsNotAValidClassFile() {
        Random random = new Random(7);
        for (int n : new int[] {10, 64, 1000}) {
            byte[] b = new byte[n];
            random.nextBytes(b);
            System.arraycopy(pausable, 0, b, 0, 8); // magic and version of a real Java 17 class file
            String message = refused(b).getMessage();
            assertTrue(message.contains("not a valid class file"), message);
        }
    }
}
