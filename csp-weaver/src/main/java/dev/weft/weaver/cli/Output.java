package dev.weft.weaver.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;

/** Where -d puts the entries: a directory, or a jar when OUT is named {@code *.jar}. */
interface Output extends Closeable {
    /** Writes {@code bytes} as entry {@code name} ('/'-separated). */
    void write(String name, byte[] bytes) throws IOException;

    /** Copies {@code in} as entry {@code name}. */
    void copy(String name, InputStream in) throws IOException;

    /** Whether {@code path} names a jar to write rather than a directory. */
    static boolean isJar(Path path) {
        Path name = path.getFileName();
        return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".jar");
    }

    /** The output at {@code path}: a jar if {@link #isJar}, else a directory. */
    static Output open(Path path) throws IOException {
        return isJar(path) ? new OutputJar(path) : new OutputDirectory(path);
    }
}
