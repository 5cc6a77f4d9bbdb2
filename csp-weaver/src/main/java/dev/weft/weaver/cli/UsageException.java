package dev.weft.weaver.cli;

/** The command line is wrong: the message says how; the usage follows it. */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
