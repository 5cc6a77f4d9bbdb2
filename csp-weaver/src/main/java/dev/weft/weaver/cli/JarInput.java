package dev.weft.weaver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** A jar (or any zip): every file entry, in the order stored. */
final class JarInput implements Input {
    private final Path path;
    private final ZipFile zip;

    JarInput(Path path) throws IOException {
        this.path = path;
        try {
            this.zip = new ZipFile(path.toFile());
        } catch (IOException e) {
            throw new IOException("cannot open " + path + " as a jar: " + e.getMessage(), e);
        }
    }

    @Override
    public void forEach(Visitor visitor) throws IOException {
        Enumeration<? extends ZipEntry> entries = zip.entries();
        while (entries.hasMoreElements()) {
            ZipEntry e = entries.nextElement();
            if (e.isDirectory()) {
                continue;
            }
            visitor.visit(new Entry() {
                @Override
                public String name() {
                    return e.getName();
                }

                @Override
                public InputStream open() throws IOException {
                    return zip.getInputStream(e);
                }

                @Override
                public String toString() {
                    return path + "!/" + e.getName();
                }
            });
        }
    }

    @Override
    public void close() throws IOException {
        zip.close();
    }
}
