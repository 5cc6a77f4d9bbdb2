package dev.weft.weaver.tool;

import dev.weft.weaver.ClassFinder;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Class directories and jars searched in order, as a javac classpath is, that closes the jars it opened.
 *
 * <p>Build tools run many builds in one JVM (Maven daemons, IDEs), so a classpath must not leave jar files open:
 * close it once weaving is done. Missing paths and duplicates are skipped.
 */
public final class ClassPath implements ClassFinder, Closeable {
    private final List<ClassFinder> finders = new ArrayList<>();
    private final List<ZipFile> jars = new ArrayList<>();

    private ClassPath() {
    }

    /**
     * A classpath over {@code paths}: directories of class files and jar (zip) files.
     *
     * @throws IOException if a jar cannot be opened
     */
    public static ClassPath open(List<Path> paths) throws IOException {
        ClassPath cp = new ClassPath();
        try {
            for (Path p : new LinkedHashSet<>(paths)) {
                cp.add(p);
            }
        } catch (IOException | RuntimeException e) {
            cp.close();
            throw e;
        }
        return cp;
    }

    private void add(Path p) throws IOException {
        if (Files.isDirectory(p)) {
            finders.add(name -> readFile(p.resolve(name + ".class")));
        } else if (Files.isRegularFile(p)) {
            ZipFile zip;
            try {
                zip = new ZipFile(p.toFile());
            } catch (IOException e) {
                throw new IOException("cannot open " + p + " as a jar: " + e.getMessage(), e);
            }
            jars.add(zip);
            finders.add(name -> readEntry(zip, name + ".class"));
        }
    }

    private static byte[] readFile(Path f) {
        try {
            return Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    private static byte[] readEntry(ZipFile zip, String entryName) {
        ZipEntry e = zip.getEntry(entryName);
        if (e == null) {
            return null;
        }
        try (InputStream in = zip.getInputStream(e)) {
            return in.readAllBytes();
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + entryName + " from " + zip.getName(), ex);
        }
    }

    @Override
    public byte[] find(String internalName) {
        for (ClassFinder f : finders) {
            byte[] b = f.find(internalName);
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    /** Closes every jar this classpath opened; later lookups in them fail. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (ZipFile z : jars) {
            try {
                z.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        jars.clear();
        if (first != null) {
            throw first;
        }
    }
}
