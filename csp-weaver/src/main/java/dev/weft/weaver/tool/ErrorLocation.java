package dev.weft.weaver.tool;

import dev.weft.weaver.WeaveError;

/**
 * Places an engine error in its package, so that {@code Foo.java:42: message} becomes
 * {@code com/acme/Foo.java:42: message}: class files only record the source file's simple name, and two
 * packages may both have a {@code Foo.java}.
 */
public final class ErrorLocation {
    private static final String VERSIONS = "META-INF/versions/";

    private ErrorLocation() {
    }

    /**
     * {@code error} with its file qualified by the package directory of {@code classEntry}, the class file's
     * path relative to its root (e.g. {@code com/acme/Foo$1.class}, or a jar entry name).
     */
    public static WeaveError locate(String classEntry, WeaveError error) {
        // "?" is the engine's word for a class file it could not read far enough to find the source name.
        String file = error.file() == null || error.file().isEmpty() || error.file().equals("?")
                ? classEntry : error.file();
        if (file.indexOf('/') < 0) {
            file = packageDirectory(classEntry) + file;
        }
        return new WeaveError(file, error.line(), error.method(), error.message());
    }

    /** {@code com/acme/} for {@code com/acme/Foo.class} (also inside a multi-release jar), "" for none. */
    static String packageDirectory(String classEntry) {
        String name = classEntry.replace('\\', '/');
        if (name.startsWith(VERSIONS)) {
            int end = name.indexOf('/', VERSIONS.length());
            name = end < 0 ? name : name.substring(end + 1);
        }
        return name.substring(0, name.lastIndexOf('/') + 1);
    }
}
