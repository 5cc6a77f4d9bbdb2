package dev.weft.weaver.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The files of one IN: a class directory or a jar, walked as entry names relative to its root. */
interface Input extends Closeable {
    /** One file of the input: its name ('/'-separated, relative to the root) and a way to read it. */
    interface Entry {
        String name();

        InputStream open() throws IOException;
    }

    /** Receives the entries of an input, one by one. */
    @FunctionalInterface
    interface Visitor {
        void visit(Entry entry) throws IOException;
    }

    /** Calls {@code visitor} for every file, in a stable order (sorted for directories, stored for jars). */
    void forEach(Visitor visitor) throws IOException;

    /** The input at {@code path}: a directory, or else a jar (zip) file. */
    static Input open(Path path) throws IOException {
        return Files.isDirectory(path) ? new DirectoryInput(path) : new JarInput(path);
    }
}
