package dev.weft.maven;

import dev.weft.weaver.Weaver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The class files as JaCoCo's offline instrumentation ({@code jacoco:instrument}) found them: it keeps them under
 * {@code target/generated-classes/jacoco} and puts them back for its report ({@code
 * jacoco:restore-instrumented-classes}). For a report of the source they must be javac's (docs/weaving.md,
 * "Coverage"). A woven one means that javac did not compile the class again since an earlier build wove it:
 * JaCoCo instrumented the weave, and its report would count the weaver's branches as the user's.
 */
final class JacocoOriginals {
    /** Where {@code jacoco:instrument} keeps them, under the build directory. */
    private static final String DIRECTORY = "generated-classes/jacoco";
    /** JaCoCo's name for its probe array (a field or a dynamic constant), in every class it instrumented. */
    private static final String PROBES = "$jacocoData";

    private JacocoOriginals() {
    }

    /**
     * The class files of {@code classes} (relative to it) that JaCoCo instrumented after a weave; none if
     * {@code jacoco:instrument} never ran.
     */
    static List<String> instrumentedWoven(Path buildDirectory, Path classes) throws IOException {
        Path originals = buildDirectory.resolve(DIRECTORY);
        if (!Files.isDirectory(originals)) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(originals)) {
            for (Path original : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = originals.relativize(original).toString()
                        .replace(original.getFileSystem().getSeparator(), "/");
                // Only what JaCoCo instrumented in this build: a plain build may find an old directory.
                Path current = classes.resolve(name);
                if (Files.isRegularFile(current) && isInstrumented(Files.readAllBytes(current))
                        && Weaver.isWoven(Files.readAllBytes(original))) {
                    found.add(name);
                }
            }
        }
        return found;
    }

    private static boolean isInstrumented(byte[] classFile) {
        // Names are stored as (modified) UTF-8: an ASCII name appears byte for byte.
        return new String(classFile, StandardCharsets.ISO_8859_1).contains(PROBES);
    }
}
