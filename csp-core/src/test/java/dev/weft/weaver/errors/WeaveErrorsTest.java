package dev.weft.weaver.errors;

import static dev.weft.weaver.errors.Snippets.compile;
import static dev.weft.weaver.errors.Snippets.lineOf;
import static dev.weft.weaver.errors.Snippets.weaveErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.WeaveException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the weaver refuses, and how it says so: file, line and a message naming the callee. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeaveErrorsTest {
    @TempDir
    Path out;

    private static final String HEADER = "package snip;\n"
            + "import dev.weft.csp.*;\n"
            + "import java.util.List;\n";

    /** Compiles {@code Foo} and weaves every class it produced; returns the errors. */
    private List<WeaveError> errorsOf(String foo) {
        compile(out, Map.of("Foo", foo));
        return weaveErrors(out);
    }

    private static WeaveError only(List<WeaveError> errors) {
        assertEquals(1, errors.size(), () -> "expected exactly one error, got " + errors);
        return errors.get(0);
    }

    private static void assertError(WeaveError e, int line, String... phrases) {
        assertEquals("Foo.java", e.file(), () -> "file of " + e);
        assertEquals(line, e.line(), () -> "line of " + e);
        for (String p : phrases) {
            assertTrue(e.message().contains(p), () -> "message lacks \"" + p + "\": " + e.message());
        }
    }

    @Test
    void pausableCallInSynchronizedBlock() {
        String src = HEADER
                + "public class Foo {\n"
                + "    private final Object lock = new Object();\n"
                + "    @Pausable\n"
                + "    public int bar(ChannelInput<Integer> in) {\n"
                + "        int before = 1;\n"
                + "        synchronized (lock) {\n"
                + "            return before + in.read();\n"
                + "        }\n"
                + "    }\n"
                + "}\n";
        WeaveError e = only(errorsOf(src));
        assertError(e, lineOf(src, "in.read()"), "ChannelInput.read()", "synchronized",
                "move the call out of the synchronized block");
        assertEquals("Foo.java:" + lineOf(src, "in.read()") + ": " + e.message(), e.toString());
    }

    @Test
    void pausableCallInCatchInsideSynchronizedBlockIsRefusedButNotInTheCatchAroundIt() {
        String src = HEADER
                + "public class Foo {\n"
                + "    private final Object lock = new Object();\n"
                + "    private int n;\n"
                + "    @Pausable\n"
                + "    public int bar(ChannelInput<Integer> in) {\n"
                + "        try {\n"
                + "            synchronized (lock) {\n"
                + "                try {\n"
                + "                    n++;\n"
                + "                } catch (RuntimeException e) {\n"
                + "                    return in.read(); // held\n"
                + "                }\n"
                + "            }\n"
                + "        } catch (RuntimeException e) {\n"
                + "            return in.read(); // released\n"
                + "        }\n"
                + "        return in.read(); // after\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOf(src)), lineOf(src, "// held"), "ChannelInput.read()", "synchronized");
    }

    @Test
    void pausableCallInSynchronizedPausableMethod() {
        String src = HEADER
                + "public class Foo {\n"
                + "    @Pausable\n"
                + "    public synchronized int bar(ChannelInput<Integer> in) {\n"
                + "        int before = 1;\n"
                + "        return before + in.read();\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOf(src)), lineOf(src, "in.read()"), "ChannelInput.read()", "synchronized");
    }

    @Test
    void pausableCallInConstructor() {
        String src = HEADER
                + "public class Foo {\n"
                + "    final int x;\n"
                + "    public Foo(ChannelInput<Integer> in) {\n"
                + "        x = in.read();\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOf(src)), lineOf(src, "in.read()"), "constructor", "ChannelInput.read()");
    }

    @Test
    void pausableCallInStaticInitializer() {
        String src = HEADER
                + "public class Foo {\n"
                + "    static final ChannelInput<Integer> IN = Channel.<Integer>one2one().in();\n"
                + "    static int x;\n"
                + "    static {\n"
                + "        x = IN.read();\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOf(src)), lineOf(src, "IN.read()"), "static initializer", "ChannelInput.read()");
    }

    /**
     * A lambda, anonymous class or method reference of a plain interface calls pausable code in thread mode, in
     * a pausable method as in a plain one (ThreadModeOnCarrierTest runs them).
     */
    @Test
    void plainInterfacesInAPausableMethodCallInThreadModeAsAnywhere() {
        String src = HEADER
                + "public class Foo {\n"
                + "    @Pausable\n"
                + "    public void bar(List<Integer> list, ChannelOutput<Integer> out) {\n"
                + "        new Thread(() -> out.write(7)).start();\n"
                + "        list.forEach(x -> out.write(x));\n"
                + "        new Thread(new Runnable() {\n"
                + "            @Override\n"
                + "            public void run() {\n"
                + "                out.write(1);\n"
                + "            }\n"
                + "        }).start();\n"
                + "        list.forEach(out::write);\n"
                + "    }\n"
                + "}\n";
        assertEquals(List.of(), errorsOf(src));
    }

    @Test
    void pausableMethodOverridesNonPausable() {
        String src = HEADER
                + "public class Foo implements Runnable {\n"
                + "    @Override\n"
                + "    @Pausable\n"
                + "    public void run() {\n"
                + "        int first = 1;\n"
                + "        System.out.println(first);\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOf(src)), lineOf(src, "int first = 1;"), "@Pausable", "overrides", "Runnable.run()",
                "implement an interface whose method is @Pausable instead");
    }

    @Test
    void nonPausableMethodImplementsPausable() {
        String src = HEADER
                + "public class Foo implements CSProcess {\n"
                + "    @Override\n"
                + "    public void run() {\n"
                + "        int first = 2;\n"
                + "        System.out.println(first);\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOf(src)), lineOf(src, "int first = 2;"), "not @Pausable", "CSProcess.run()",
                "mark it @Pausable too");
    }

    @Test
    void calleeMissingFromWeaveClasspath() throws Exception {
        String helper = HEADER
                + "public class Helper {\n"
                + "    @Pausable\n"
                + "    public static int fetch(ChannelInput<Integer> in) {\n"
                + "        return in.read();\n"
                + "    }\n"
                + "}\n";
        String foo = HEADER
                + "public class Foo {\n"
                + "    @Pausable\n"
                + "    public int bar(ChannelInput<Integer> in) {\n"
                + "        int one = 1;\n"
                + "        return Helper.fetch(in) + one;\n"
                + "    }\n"
                + "}\n";
        assertError(only(errorsOfFooWithout("Helper", foo, helper)), lineOf(foo, "Helper.fetch(in)"),
                "not on the weave classpath", "Helper");
    }

    @Test
    void supertypeMissingFromWeaveClasspathIsReportedAtTheMethodsFirstLine() throws Exception {
        String base = HEADER
                + "public class Base {\n"
                + "    public int bar() {\n"
                + "        return 0;\n"
                + "    }\n"
                + "}\n";
        String foo = HEADER
                + "public class Foo extends Base {\n"
                + "    @Pausable\n"
                + "    public int bar() {\n"
                + "        return 1;\n"
                + "    }\n"
                + "}\n";
        // The error concerns no instruction: it is placed at the method, not at line 0.
        assertError(only(errorsOfFooWithout("Base", foo, base)), lineOf(foo, "return 1;"), "supertype Base",
                "not on the weave classpath");
    }

    /** Compiles {@code Foo} and class {@code other}, then weaves {@code Foo} without {@code other}: its errors. */
    private List<WeaveError> errorsOfFooWithout(String other, String foo, String otherSource) throws Exception {
        compile(out, Map.of("Foo", foo, other, otherSource));
        Files.delete(out.resolve("snip/" + other + ".class"));
        byte[] fooClass = Files.readAllBytes(out.resolve("snip/Foo.class"));
        return assertThrows(WeaveException.class, () -> Snippets.weaver(out).weave(fooClass)).errors();
    }

    @Test
    void everyErrorOfAClassIsReported() {
        String src = HEADER
                + "public class Foo {\n"
                + "    private final Object lock = new Object();\n"
                + "    static final int S = Channel.<Integer>one2one().in().read(); // error: static initializer\n"
                + "    final int x;\n"
                + "    public Foo(ChannelInput<Integer> in) {\n"
                + "        x = in.read(); // error: constructor\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    public int a(ChannelInput<Integer> in) {\n"
                + "        synchronized (lock) {\n"
                + "            return in.read(); // error: synchronized block\n"
                + "        }\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    public synchronized int b(ChannelInput<Integer> in) {\n"
                + "        return in.read(); // error: synchronized method\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    public void c(List<Integer> list, ChannelOutput<Integer> out) {\n"
                + "        list.forEach(v -> out.write(v)); // thread mode: no error\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    public int fine(ChannelInput<Integer> in) {\n"
                + "        return in.read(); // fine\n"
                + "    }\n"
                + "}\n";
        compile(out, Map.of("Foo", src));
        WeaveException e = assertThrows(WeaveException.class, () -> Snippets.weaver(out)
                .weave(Files.readAllBytes(out.resolve("snip/Foo.class"))));
        List<Integer> lines = e.errors().stream().map(WeaveError::line).sorted().collect(Collectors.toList());
        assertEquals(4, e.errors().size(), () -> "errors: " + e.errors());
        assertEquals(List.of(lineOf(src, "error: static initializer"), lineOf(src, "error: constructor"),
                lineOf(src, "error: synchronized block"), lineOf(src, "error: synchronized method")), lines);
        assertTrue(e.errors().stream().allMatch(err -> err.file().equals("Foo.java")), () -> "" + e.errors());
        for (WeaveError err : e.errors()) {
            assertTrue(e.getMessage().contains(err.toString()), "the exception's message lists " + err);
        }
        assertFalse(e.errors().stream().anyMatch(err -> err.line() == lineOf(src, "// fine")
                        || err.line() == lineOf(src, "// thread mode: no error")), "the correct methods are not reported");
    }
}
