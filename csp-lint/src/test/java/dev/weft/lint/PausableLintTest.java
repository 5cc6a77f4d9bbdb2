package dev.weft.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Real javac compilations of small sources against Weft's API, with the lint as their annotation processor:
 * each rule reports the weaver's message on the line the weaver names, and correct code compiles cleanly.
 */
class PausableLintTest {
    private static final String HEADER = "package snip;\n"
            + "import dev.weft.csp.*;\n"
            + "import java.util.List;\n";

    /** What javac reported for one source: line and message of each error. */
    private static List<String> errorsOf(String source) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null);
        JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///snip/Foo.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        Path out;
        try {
            out = Files.createTempDirectory("lint");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // A whole compilation, as a build runs it: the lint checks once javac has attributed the types.
        JavaCompiler.CompilationTask task = javac.getTask(null, files, diagnostics,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString()), null, List.of(unit));
        task.setProcessors(List.of(new PausableLint()));
        task.call();
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors.add(d.getLineNumber() + ": " + d.getMessage(null));
            }
        }
        return errors;
    }

    private static final String MONITOR = " a fiber must not pause while holding a monitor (its carrier would"
            + " hold it for other fibers); move the call out of the synchronized block, or share the state over a"
            + " channel instead";

    private static long lineOf(String source, String text) {
        int at = source.indexOf(text);
        assertTrue(at >= 0, text);
        return source.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }

    /**
     * A lambda, anonymous class or method reference of a plain interface may call pausable code in a pausable
     * method as in a plain one: it runs in thread mode (handed to a thread, it blocks that thread), as the
     * weaver has it.
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
    void overridesThatDisagree() {
        String src = HEADER
                + "public class Foo {\n"
                + "    static class A implements Runnable {\n"
                + "        @Override\n"
                + "        @Pausable\n"
                + "        public void run() {\n"
                + "        }\n"
                + "    }\n"
                + "    static class B implements CSProcess {\n"
                + "        @Override\n"
                + "        public void run() {\n"
                + "        }\n"
                + "    }\n"
                + "}\n";
        List<String> errors = errorsOf(src);
        assertEquals(2, errors.size(), errors::toString);
        assertTrue(errors.get(0).endsWith("Foo.A.run() is @Pausable but overrides Runnable.run(), which is not"
                + " @Pausable: a call through the plain method cannot pause, so implement an interface whose method"
                + " is @Pausable instead (CSProcess, or one of your own), or drop @Pausable"), errors.get(0));
        assertTrue(errors.get(1).endsWith("Foo.B.run() is not @Pausable but overrides pausable CSProcess.run():"
                + " mark it @Pausable too"), errors.get(1));
    }

    @Test
    void monitorsConstructorsAndInitializers() {
        String src = HEADER
                + "public class Foo {\n"
                + "    static final ChannelInput<Integer> IN = Channel.<Integer>one2one().in();\n"
                + "    static int s;\n"
                + "    static {\n"
                + "        s = IN.read(); // static\n"
                + "    }\n"
                + "    private final Object lock = new Object();\n"
                + "    final int x;\n"
                + "    public Foo(ChannelInput<Integer> in) {\n"
                + "        x = in.read(); // constructor\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    public int a(ChannelInput<Integer> in) {\n"
                + "        synchronized (lock) {\n"
                + "            return in.read(); // block\n"
                + "        }\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    public synchronized int b(ChannelInput<Integer> in) {\n"
                + "        return in.read(); // method\n"
                + "    }\n"
                + "}\n";
        assertEquals(List.of(
                lineOf(src, "// static") + ": static initializer of Foo calls pausable ChannelInput.read(): a static"
                        + " initializer cannot pause; do blocking work in a method",
                lineOf(src, "// constructor") + ": constructor of Foo calls pausable ChannelInput.read(): a"
                        + " constructor cannot pause; do blocking work in a method",
                lineOf(src, "// block") + ": Foo.a() calls pausable ChannelInput.read() inside a synchronized block:"
                        + MONITOR,
                lineOf(src, "// method") + ": Foo.b() is synchronized and calls pausable ChannelInput.read():"
                        + MONITOR), errorsOf(src));
    }

    @Test
    void correctCodeCompilesCleanly() {
        String src = HEADER
                + "public class Foo {\n"
                + "    @Pausable\n"
                + "    public int sum(ChannelInput<Integer> in, int n) {\n"
                + "        int s = 0;\n"
                + "        for (int i = 0; i < n; i++) {\n"
                + "            s += in.read();\n"
                + "        }\n"
                + "        return s;\n"
                + "    }\n"
                + "    public static void main(String[] args) {\n"                      // thread mode: allowed
                + "        One2OneChannel<Integer> c = Channel.one2one();\n"
                + "        Weft.spawn(() -> c.out().write(1));\n"                        // a CSProcess lambda
                + "        System.out.println(new Foo().sum(c.in(), 1));\n"
                + "        Parallel.forRange(0, 2, i -> c.in().poison());\n"
                + "    }\n"
                + "    @Pausable\n"
                + "    void nested(ChannelOutput<Integer> out) {\n"
                + "        Weft.spawn(() -> Weft.spawn(() -> out.write(2)));\n"         // pausable in pausable
                + "        synchronized (this) {\n"
                + "            System.out.println(\"no pause here\");\n"
                + "        }\n"
                + "    }\n"
                + "}\n";
        assertEquals(List.of(), errorsOf(src));
    }
}
