package dev.weft.weaver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The -d directory: writes entries under it, refusing names that would land outside it. */
final class OutputDirectory implements Output {
    private final Path root;

    OutputDirectory(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Writes {@code bytes} as entry {@code name}, replacing what is there. */
    @Override
    public void write(String name, byte[] bytes) throws IOException {
        Files.write(prepare(name), bytes);
    }

    /** Copies {@code in} to entry {@code name}, replacing what is there. */
    @Override
    public void copy(String name, InputStream in) throws IOException {
        Files.copy(in, prepare(name), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        // every file is complete once written
    }

    private Path prepare(String name) throws IOException {
        Path target = root.resolve(name).normalize();
        // A jar entry such as "../../etc/x" must not escape the output directory ("zip slip").
        if (!target.startsWith(root) || target.equals(root)) {
            throw new IOException("refusing entry " + name + ": it would be written outside " + root);
        }
        Files.createDirectories(target.getParent());
        return target;
    }
}
