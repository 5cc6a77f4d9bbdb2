package dev.weft.weaver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** The -d jar: every entry goes into it, in the order given (a manifest first stays first). */
final class OutputJar implements Output {
    private final ZipOutputStream zip;

    OutputJar(Path jar) throws IOException {
        Path parent = jar.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        this.zip = new ZipOutputStream(Files.newOutputStream(jar));
    }

    @Override
    public void write(String name, byte[] bytes) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(bytes);
        zip.closeEntry();
    }

    @Override
    public void copy(String name, InputStream in) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        in.transferTo(zip);
        zip.closeEntry();
    }

    @Override
    public void close() throws IOException {
        zip.close();
    }
}
