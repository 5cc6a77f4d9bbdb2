package dev.weft.weaver.tool;

import dev.weft.weaver.WeaveError;
import dev.weft.weaver.WeaveException;
import java.util.List;

/**
 * Weaves one class file found in a directory or jar and says what happened: the step the command line
 * and the Maven goal share.
 */
public final class ClassWeaving {
    /** What became of a class file. */
    public enum Kind {
        /** It carries the woven marker already; the engine was not run. */
        ALREADY_WOVEN,
        /** The engine found nothing to weave (or it is a module or package descriptor). */
        UNCHANGED,
        /** The engine wove it; {@link Result#classFile()} holds the new bytes. */
        WOVEN,
        /** The engine reported errors; see {@link Result#errors()}. */
        FAILED
    }

    /**
     * The outcome for one class file.
     *
     * @param kind      what happened
     * @param classFile the bytes to write: the woven ones, or the input unchanged
     * @param errors    for {@link Kind#FAILED}, every error, its file qualified by the package directory
     */
    public record Result(Kind kind, byte[] classFile, List<WeaveError> errors) {
    }

    private final ClassTransform transform;

    /** Weaving through {@code transform} (normally {@link ClassTransform#of} the engine). */
    public ClassWeaving(ClassTransform transform) {
        this.transform = transform;
    }

    /**
     * Weaves {@code classFile}, found as {@code entry} (its path relative to its root, with '/' separators).
     *
     * @throws IllegalStateException if the engine fails for a reason other than errors in the input
     *         (a bug, or a library it cannot read); the message names the class file
     */
    public Result weave(String entry, byte[] classFile) {
        if (isDescriptor(entry)) {
            return new Result(Kind.UNCHANGED, classFile, List.of());
        }
        try {
            if (transform.isWoven(classFile)) {
                return new Result(Kind.ALREADY_WOVEN, classFile, List.of());
            }
            byte[] woven = transform.weave(classFile);
            return woven == classFile
                    ? new Result(Kind.UNCHANGED, classFile, List.of())
                    : new Result(Kind.WOVEN, woven, List.of());
        } catch (WeaveException e) {
            List<WeaveError> located = e.errors().stream().map(err -> ErrorLocation.locate(entry, err)).toList();
            return new Result(Kind.FAILED, classFile, located);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot weave " + entry + ": " + e, e);
        }
    }

    // module-info and package-info carry no code; their names can never be those of real classes.
    private static boolean isDescriptor(String entry) {
        String file = entry.substring(entry.lastIndexOf('/') + 1);
        return file.equals("module-info.class") || file.equals("package-info.class");
    }
}
