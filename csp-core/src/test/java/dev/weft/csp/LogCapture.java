package dev.weft.csp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What Weft logs (logger {@code dev.weft.csp}, through {@link System.Logger} to java.util.logging) while it is
 * open. Records are published by whatever thread logs them, so a test waits for the one it expects, bounded.
 */
final class LogCapture extends Handler implements AutoCloseable {
    private static final Logger WEFT = Logger.getLogger("dev.weft.csp");
    private final List<LogRecord> records = new ArrayList<>();

    LogCapture() {
        WEFT.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord r) {
        records.add(r);
        notifyAll();
    }

    /** The records so far that {@code which} accepts. */
    synchronized List<LogRecord> matching(Predicate<LogRecord> which) {
        List<LogRecord> out = new ArrayList<>();
        for (LogRecord r : records) {
            if (which.test(r)) {
                out.add(r);
            }
        }
        return out;
    }

    /** The records whose message contains {@code text}. */
    List<LogRecord> containing(String text) {
        return matching(r -> r.getMessage() != null && r.getMessage().contains(text));
    }

    /** Waits at most {@code timeout} for a record whose message contains {@code text}; fails if none comes. */
    synchronized LogRecord await(String text, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        for (;;) {
            List<LogRecord> found = containing(text);
            if (!found.isEmpty()) {
                return found.get(0);
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("nothing containing \"" + text + "\" was logged within " + timeout
                        + "; logged: " + messages());
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    synchronized List<String> messages() {
        List<String> out = new ArrayList<>();
        for (LogRecord r : records) {
            out.add(r.getMessage());
        }
        return out;
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        WEFT.removeHandler(this);
    }
}
