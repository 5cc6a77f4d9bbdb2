package dev.weft.maven;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.tool.ClassTransform;
import dev.weft.weaver.tool.ClassWeaving;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Weaves the class files of output directories in place.
 *
 * <p>All classes are woven in memory first and written only if no class has errors: the engine reads
 * callees from the same directories, so it must see one consistent state, and a failed build should leave
 * the directories as javac wrote them. Classes already woven (an earlier build) are skipped, so a rebuild
 * only weaves what javac wrote anew.
 */
final class InPlaceWeaver {
    /**
     * What a run did.
     *
     * @param classes      class files seen
     * @param woven        class files rewritten (or that would have been, had there been no errors)
     * @param alreadyWoven class files skipped because they were woven already
     * @param errors       every weave error, its file qualified by the package directory
     */
    record Report(int classes, int woven, int alreadyWoven, List<WeaveError> errors) {
    }

    private final ClassWeaving weaving;

    InPlaceWeaver(ClassTransform transform) {
        this.weaving = new ClassWeaving(transform);
    }

    /** Weaves every {@code .class} file under each of {@code roots} (directories that exist). */
    Report weave(List<Path> roots) throws IOException {
        Map<Path, byte[]> changed = new LinkedHashMap<>();
        List<WeaveError> errors = new ArrayList<>();
        int classes = 0;
        int alreadyWoven = 0;
        for (Path root : roots) {
            for (Path file : classFiles(root)) {
                String entry = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                ClassWeaving.Result r = weaving.weave(entry, Files.readAllBytes(file));
                classes++;
                switch (r.kind()) {
                    case WOVEN -> changed.put(file, r.classFile());
                    case FAILED -> errors.addAll(r.errors());
                    case ALREADY_WOVEN -> alreadyWoven++;
                    case UNCHANGED -> { }
                }
            }
        }
        if (errors.isEmpty()) {
            for (Map.Entry<Path, byte[]> e : changed.entrySet()) {
                replace(e.getKey(), e.getValue());
            }
        }
        return new Report(classes, changed.size(), alreadyWoven, List.copyOf(errors));
    }

    private static List<Path> classFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".class") && Files.isRegularFile(p))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    // Write beside the target, then rename: an interrupted build never leaves a half-written class file.
    private static void replace(Path file, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".weaving");
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
