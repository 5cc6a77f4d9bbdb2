package dev.weft.weaver.errors;

import dev.weft.csp.Channel;
import dev.weft.weaver.WeaveError;
import dev.weft.weaver.WeaveException;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/** Compiles Java sources held in strings and weaves the class files they produce. */
final class Snippets {
    private Snippets() {
    }

    /** Where csp-core's (woven) classes are: the classpath of every snippet. */
    static Path coreClasses() {
        try {
            return Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compiles {@code sources} (simple class name to source text, package {@code snip}) into {@code out}. */
    static void compile(Path out, Map<String, String> sources) {
        compile(out, 17, sources);
    }

    /** As {@link #compile(Path, Map)} for the given {@code --release}. */
    static void compile(Path out, int release, Map<String, String> sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<JavaFileObject> units = new ArrayList<>();
        sources.forEach((name, text) -> units.add(new Source(name, text)));
        StringWriter diagnostics = new StringWriter();
        List<String> options = List.of("--release", Integer.toString(release), "-g", "-Xlint:-options",
                "-classpath", coreClasses().toString(), "-d", out.toString());
        boolean ok = javac.getTask(diagnostics, null, null, options, null, units).call();
        if (!ok) {
            throw new IllegalStateException("snippet does not compile:\n" + diagnostics);
        }
    }

    /** The weaver the tests use: the snippets' classes first, then csp-core's. */
    static Weaver weaver(Path out) {
        try {
            return new Weaver(ClassPath.open(List.of(out, coreClasses()))); // directories: nothing to close
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every class file under {@code out}, by internal name. */
    static List<Path> classFiles(Path out) {
        try (Stream<Path> files = Files.walk(out)) {
            return files.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Weaves every class under {@code out} and returns every error reported, class by class. */
    static List<WeaveError> weaveErrors(Path out) {
        Weaver weaver = weaver(out);
        List<WeaveError> errors = new ArrayList<>();
        for (Path f : classFiles(out)) {
            try {
                weaver.weave(Files.readAllBytes(f));
            } catch (WeaveException e) {
                errors.addAll(e.errors());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return errors;
    }

    /** Weaves every class under {@code out}; returns the woven bytes by binary class name. */
    static Map<String, byte[]> weaveAll(Path out) {
        Weaver weaver = weaver(out);
        Map<String, byte[]> woven = new java.util.HashMap<>();
        for (Path f : classFiles(out)) {
            String rel = out.relativize(f).toString().replace(java.io.File.separatorChar, '/');
            try {
                woven.put(rel.substring(0, rel.length() - ".class".length()).replace('/', '.'),
                        weaver.weave(Files.readAllBytes(f)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return woven;
    }

    /** The major version of a class file. */
    static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF);
    }

    /** Defines classes from (woven) bytes, delegating everything else to the test's loader. */
    static final class BytesLoader extends ClassLoader {
        private final Map<String, byte[]> classes;

        BytesLoader(Map<String, byte[]> classes) {
            super(Snippets.class.getClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = classes.get(name);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }
    }

    /** The 1-based number of the only line of {@code source} containing {@code text}. */
    static int lineOf(String source, String text) {
        String[] lines = source.split("\n", -1);
        int found = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(text)) {
                if (found != 0) {
                    throw new IllegalArgumentException("\"" + text + "\" is on more than one line");
                }
                found = i + 1;
            }
        }
        if (found == 0) {
            throw new IllegalArgumentException("\"" + text + "\" is not in the source");
        }
        return found;
    }

    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(String simpleName, String text) {
            super(URI.create("string:///snip/" + simpleName + ".java"), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }
}
