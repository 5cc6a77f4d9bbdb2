package dev.weft.weaver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where the weaver reads the class files it needs to decide which calls are pausable: the classes being
 * woven, the libraries they call, and the JDK.
 */
@FunctionalInterface
public interface ClassFinder {
    /**
     * The class file of {@code internalName} (e.g. {@code java/lang/String}), or null if it is not here.
     */
    byte[] find(String internalName);

    /** This finder, then {@code next} for what this one does not have. */
    default ClassFinder then(ClassFinder next) {
        return name -> {
            byte[] b = find(name);
            return b != null ? b : next.find(name);
        };
    }

    /** Class files through a class loader's resources (the JDK's classes with the system loader). */
    static ClassFinder of(ClassLoader loader) {
        return name -> {
            try (InputStream in = loader == null
                    ? ClassLoader.getSystemResourceAsStream(name + ".class")
                    : loader.getResourceAsStream(name + ".class")) {
                return in == null ? null : in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + name + ".class", e);
            }
        };
    }

    /** The JDK's own classes, as the running JVM sees them. */
    static ClassFinder jdk() {
        return of(ClassLoader.getPlatformClassLoader());
    }

    /** Class directories and jars, searched in order, as a javac classpath is; missing paths are skipped. */
    static ClassFinder ofPaths(List<Path> paths) {
        List<ClassFinder> finders = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                finders.add(name -> {
                    Path f = p.resolve(name + ".class");
                    try {
                        return Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read " + f, e);
                    }
                });
            } else if (Files.isRegularFile(p)) {
                finders.add(jar(p));
            }
        }
        return name -> {
            for (ClassFinder f : finders) {
                byte[] b = f.find(name);
                if (b != null) {
                    return b;
                }
            }
            return null;
        };
    }

    private static ClassFinder jar(Path jar) {
        ZipFile zip;
        try {
            zip = new ZipFile(jar.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + jar, e);
        }
        return name -> {
            ZipEntry e = zip.getEntry(name + ".class");
            if (e == null) {
                return null;
            }
            try (InputStream in = zip.getInputStream(e)) {
                return in.readAllBytes();
            } catch (IOException ex) {
                throw new UncheckedIOException("cannot read " + name + " from " + jar, ex);
            }
        };
    }
}
