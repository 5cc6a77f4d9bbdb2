package dev.weft.weaver.cli;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.tool.ClassTransform;
import dev.weft.weaver.tool.ClassWeaving;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies every entry of the inputs into the output (a directory or a jar), weaving the class files on the way, and
 * collects every weave error. A class that fails to weave is not written (its errors are reported); the
 * first input holding an entry wins, as on a classpath.
 */
final class WeaveCommand {
    /**
     * What a run did.
     *
     * @param classes       class files seen
     * @param woven         class files the engine changed
     * @param alreadyWoven  class files that were woven before (copied unchanged)
     * @param otherFiles    other files copied
     * @param errors        every weave error, its file qualified by the package directory
     */
    record Summary(int classes, int woven, int alreadyWoven, int otherFiles, List<WeaveError> errors) {
    }

    private final ClassWeaving weaving;
    private final PrintStream warnings;
    private final Map<String, Path> written = new HashMap<>();
    private final List<WeaveError> errors = new ArrayList<>();
    private int classes;
    private int woven;
    private int alreadyWoven;
    private int otherFiles;

    WeaveCommand(ClassTransform transform, PrintStream warnings) {
        this.weaving = new ClassWeaving(transform);
        this.warnings = warnings;
    }

    /** Weaves and copies {@code inputs} into {@code output}; one command object serves one run. */
    Summary run(List<Path> inputs, Path output) throws IOException {
        try (Output out = Output.open(output)) {
            for (Path in : inputs) {
                try (Input input = Input.open(in)) {
                    input.forEach(e -> take(in, e, out));
                }
            }
        }
        return new Summary(classes, woven, alreadyWoven, otherFiles, List.copyOf(errors));
    }

    private void take(Path in, Input.Entry e, Output out) throws IOException {
        String name = e.name();
        boolean isClass = name.endsWith(".class");
        Path first = written.putIfAbsent(name, in);
        if (first != null) {
            if (isClass) {
                warnings.println("weft: warning: " + name + " in " + in + " is hidden by the one in " + first);
            }
            return;
        }
        try (InputStream stream = e.open()) {
            if (!isClass) {
                out.copy(name, stream);
                otherFiles++;
                return;
            }
            ClassWeaving.Result r = weaving.weave(name, stream.readAllBytes());
            classes++;
            switch (r.kind()) {
                case FAILED -> errors.addAll(r.errors());
                case WOVEN -> woven++;
                case ALREADY_WOVEN -> alreadyWoven++;
                case UNCHANGED -> { }
            }
            if (r.kind() != ClassWeaving.Kind.FAILED) {
                out.write(name, r.classFile());
            }
        }
    }
}
