package dev.weft.delivery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a program in a fresh JVM (the one running the tests), bounded in time. */
public final class ChildJvm {
    /**
     * How the child ended.
     *
     * @param exitCode its exit status
     * @param stdout   what it printed on standard output
     * @param stderr   what it printed on standard error
     */
    public record Result(int exitCode, String stdout, String stderr) {
        List<String> lines() {
            return stdout.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private ChildJvm() {
    }

    static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Runs {@code java args...}, output captured in files under {@code dir} (pipes could fill up and block). */
    public static Result run(Path dir, Duration timeout, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(args);
        Path out = Files.createTempFile(dir, "child", ".out");
        Path err = Files.createTempFile(dir, "child", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("child JVM did not end within " + timeout + ": " + command
                        + "\n--- stdout\n" + Files.readString(out) + "--- stderr\n" + Files.readString(err));
            }
        } finally {
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
