package dev.weft.csp.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The kernel's view of one thread, where the kernel shows it (Linux's {@code /proc}): whether the thread is
 * runnable. A thread that blocks in a system call sleeps; one that only waits for a processor on a loaded
 * machine stays runnable. The JVM's thread state cannot tell the two apart in a native method, so the carrier
 * watchdog asks here before it calls a slice blocking I/O.
 */
final class KernelTask {
    /** This thread's status file, {@code /proc/<pid>/task/<tid>/stat}. */
    private final Path stat;

    private KernelTask(Path stat) {
        this.stat = stat;
    }

    /** The calling thread's task, or null where the kernel does not show one. */
    static KernelTask ofCurrentThread() {
        try {
            Path self = Paths.get("/proc/thread-self");
            if (!Files.isSymbolicLink(self)) {
                return null;
            }
            Path task = Paths.get("/proc").resolve(Files.readSymbolicLink(self)); // <pid>/task/<tid>
            return new KernelTask(task.resolve("stat"));
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return null;
        }
    }

    /**
     * Whether the thread is runnable now (on a processor or waiting for one), as opposed to sleeping or waiting
     * for a disk; false if the state cannot be read (the thread ended, or {@code /proc} is not there).
     */
    boolean isRunnable() {
        try {
            String line = new String(Files.readAllBytes(stat), StandardCharsets.US_ASCII);
            int afterName = line.lastIndexOf(')'); // "tid (name) S ...": the name may hold spaces and parentheses
            return afterName >= 0 && afterName + 2 < line.length() && line.charAt(afterName + 2) == 'R';
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
