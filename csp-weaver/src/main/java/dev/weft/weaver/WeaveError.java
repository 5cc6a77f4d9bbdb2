package dev.weft.weaver;

/**
 * One thing wrong in the input: where (source file, line, class and method) and what.
 *
 * @param file   the source file name as the class file records it, or the class file name if none
 * @param line   the source line, or 0 if unknown
 * @param method the method, as {@code Class.method()}
 * @param message what is wrong
 */
public record WeaveError(String file, int line, String method, String message) {
    /** {@code File.java:42: message}, the form javac uses. */
    @Override
    public String toString() {
        return file + ":" + line + ": " + message;
    }
}
