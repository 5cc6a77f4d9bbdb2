package dev.weft.weaver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A class directory: every regular file under it, sorted by path. */
final class DirectoryInput implements Input {
    private final Path root;

    DirectoryInput(Path root) {
        this.root = root;
    }

    @Override
    public void forEach(Visitor visitor) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        for (Path f : files) {
            String name = root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
            visitor.visit(new Entry() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public InputStream open() throws IOException {
                    return Files.newInputStream(f);
                }
            });
        }
    }

    @Override
    public void close() {
        // nothing held open between walks
    }
}
