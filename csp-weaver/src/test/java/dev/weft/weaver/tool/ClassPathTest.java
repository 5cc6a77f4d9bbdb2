package dev.weft.weaver.tool;

import static dev.weft.weaver.tool.FakeEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassPathTest {
    @TempDir
    Path dir;

    /** Writes a jar holding {@code entries} (name to text). */
    static Path jar(Path file, Map<String, String> entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(bytes(e.getValue()));
                zip.closeEntry();
            }
        }
        return file;
    }

    @Test
    void searchesDirectoriesAndJarsInOrder() throws IOException {
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve("a"));
        Files.write(classes.resolve("a/A.class"), bytes("from dir"));
        Path lib = jar(dir.resolve("lib.jar"), Map.of("a/A.class", "from jar", "b/B.class", "only in jar"));
        try (ClassPath cp = ClassPath.open(List.of(classes, dir.resolve("missing"), lib))) {
            assertArrayEquals(bytes("from dir"), cp.find("a/A"));
            assertArrayEquals(bytes("only in jar"), cp.find("b/B"));
            assertNull(cp.find("c/C"));
        }
    }

    @Test
    void closingReleasesTheJarSoItCanBeDeleted() throws IOException {
        Path lib = jar(dir.resolve("lib.jar"), Map.of("b/B.class", "x"));
        ClassPath cp = ClassPath.open(List.of(lib));
        cp.find("b/B");
        cp.close();
        Files.delete(lib);
    }
}
