package dev.weft.weaver.errors;

import static dev.weft.weaver.errors.Snippets.compile;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Pausable code that was never woven fails with one clear message saying how to weave, not a VerifyError. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnwovenCodeTest {
    @TempDir
    Path out;

    private static final String READER = "package snip;\n"
            + "import dev.weft.csp.*;\n"
            + "public class Reader implements CSProcess {\n"
            + "    private final ChannelInput<Integer> in;\n"
            + "    public Reader(ChannelInput<Integer> in) {\n"
            + "        this.in = in;\n"
            + "    }\n"
            + "    @Override\n"
            + "    @Pausable\n"
            + "    public void run() {\n"
            + "        System.out.println(in.read());\n"
            + "    }\n"
            + "    public static CSProcess lambda(ChannelInput<Integer> in) {\n"
            + "        return () -> System.out.println(in.read());\n"
            + "    }\n"
            + "}\n";

    private Class<?> unwovenReader() throws Exception {
        compile(out, Map.of("Reader", READER));
        Map<String, byte[]> plain = new HashMap<>();
        plain.put("snip.Reader", Files.readAllBytes(out.resolve("snip/Reader.class")));
        return new Snippets.BytesLoader(plain).loadClass("snip.Reader");
    }

    private static void assertClearFailure(CSProcess p) {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Throwable t = assertThrows(Throwable.class, () -> Weft.run(s, p));
            assertFalse(t instanceof LinkageError, () -> "a clear message, not " + t);
            String m = String.valueOf(t.getMessage());
            assertTrue(m.toLowerCase().contains("weav"), () -> "says how to weave: " + m);
            assertTrue(m.contains("Reader"), () -> "names the unwoven class: " + m);
        }
    }

    @Test
    void unwovenProcessClassFailsClearly() throws Exception {
        One2OneChannel<Integer> ch = Channel.one2one();
        Class<?> reader = unwovenReader();
        assertClearFailure((CSProcess) reader.getConstructor(ChannelInput.class).newInstance(ch.in()));
    }

    @Test
    void unwovenPausableLambdaFailsClearly() throws Exception {
        One2OneChannel<Integer> ch = Channel.one2one();
        Class<?> reader = unwovenReader();
        assertClearFailure((CSProcess) reader.getMethod("lambda", ChannelInput.class).invoke(null, ch.in()));
    }
}
