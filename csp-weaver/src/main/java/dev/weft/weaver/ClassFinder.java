package dev.weft.weaver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Where the weaver reads the class files it needs to decide which calls are pausable: the classes being
 * woven, the libraries they call, and the JDK. Class directories and jars are read by {@link
 * dev.weft.weaver.tool.ClassPath}, which closes the jars it opened.
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
}
