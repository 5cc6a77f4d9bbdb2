package dev.weft.weaver.classfiles;

import dev.weft.csp.Channel;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Small helpers over real class files: where csp-core lives, reading, writing and weaving class directories. */
final class ClassFiles {
    private ClassFiles() {
    }

    /** csp-core's own (woven) classes: the directory or jar that holds {@code dev.weft.csp.Channel}. */
    static Path coreClasses() {
        try {
            return Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Where a class of the test classpath was loaded from (a directory or a jar). */
    static Path locationOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The major version of a class file (52 for Java 8, 65 for Java 21, ...). */
    static int major(byte[] classFile) {
        return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    /**
     * Every class file under {@code dir}, by internal name ({@code pkg/Name$Inner}), in name order; not a module's
     * descriptor ({@code module-info.class}), which is no class.
     */
    static Map<String, byte[]> read(Path dir) {
        Map<String, byte[]> classes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class")
                    && !p.getFileName().toString().equals("module-info.class"))::iterator) {
                String rel = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
                classes.put(rel.substring(0, rel.length() - ".class".length()), Files.readAllBytes(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return classes;
    }

    /** Writes class files into {@code dir} under their internal names. */
    static Path write(Path dir, Map<String, byte[]> classes) {
        try {
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                Path f = dir.resolve(c.getKey() + ".class");
                Files.createDirectories(f.getParent());
                Files.write(f, c.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /**
     * Weaves every class of {@code classes} with the engine, resolving callees through those classes and
     * csp-core, as the build would. Returns the engine's output for each class (the very input array when
     * there was nothing to weave).
     */
    static Map<String, byte[]> weave(Map<String, byte[]> classes, Path classesDir) {
        Weaver weaver = new Weaver(classPath(classesDir));
        Map<String, byte[]> woven = new TreeMap<>();
        classes.forEach((name, bytes) -> woven.put(name, weaver.weave(bytes)));
        return woven;
    }

    /** A weave classpath of {@code classesDir}, then csp-core's classes: directories, so nothing to close. */
    static ClassPath classPath(Path classesDir) {
        try {
            return ClassPath.open(List.of(classesDir, coreClasses()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A loader for a directory of (woven) classes whose parent is the test's loader, which shares csp-core. */
    static URLClassLoader loader(Path dir) {
        try {
            return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassFiles.class.getClassLoader());
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A text resource beside this class (the snippets compiled by the tests). */
    static String resource(String name) {
        try (InputStream in = ClassFiles.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
