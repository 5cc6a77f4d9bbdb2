package dev.weft.weaver.classfiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A JDK installed beside the one running the tests, and bounded runs of its tools. */
record NewerJdk(Path home, int feature) {
    private static final Path JVMS = Path.of("/usr/lib/jvm");
    private static final Pattern VERSION = Pattern.compile("javac (\\d+)");

    /** How a tool run ended. */
    record Result(int exitCode, String stdout, String stderr) {
        List<String> lines() {
            return stdout.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    /** The first JDK under /usr/lib/jvm (in name order) whose javac reports at least {@code minimum}. */
    static Optional<NewerJdk> find(int minimum) {
        if (!Files.isDirectory(JVMS)) {
            return Optional.empty();
        }
        List<Path> homes;
        try (Stream<Path> s = Files.list(JVMS)) {
            homes = s.sorted().toList();
        } catch (IOException e) {
            return Optional.empty();
        }
        for (Path home : homes) {
            if (!Files.isExecutable(home.resolve("bin/javac")) || !Files.isExecutable(home.resolve("bin/java"))) {
                continue;
            }
            try {
                Result r = run(home.resolve("bin/javac"), List.of("-version"), Files.createTempDirectory("javac"),
                        Duration.ofSeconds(60));
                Matcher m = VERSION.matcher(r.stdout() + r.stderr());
                if (r.exitCode() == 0 && m.find() && Integer.parseInt(m.group(1)) >= minimum) {
                    return Optional.of(new NewerJdk(home, Integer.parseInt(m.group(1))));
                }
            } catch (IOException | InterruptedException | AssertionError e) {
                // not a usable JDK: try the next one
            }
        }
        return Optional.empty();
    }

    /** Runs this JDK's javac. */
    Result javac(Path workDir, Duration timeout, List<String> args) throws IOException, InterruptedException {
        return run(home.resolve("bin/javac"), args, workDir, timeout);
    }

    /** Runs this JDK's java. */
    Result java(Path workDir, Duration timeout, List<String> args) throws IOException, InterruptedException {
        return run(home.resolve("bin/java"), args, workDir, timeout);
    }

    /** Runs a program, output captured in files under {@code workDir} (a pipe could fill up and block it). */
    private static Result run(Path program, List<String> args, Path workDir, Duration timeout)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(args);
        Path out = Files.createTempFile(workDir, "tool", ".out");
        Path err = Files.createTempFile(workDir, "tool", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("did not end within " + timeout + ": " + command
                        + "\n--- stdout\n" + Files.readString(out) + "--- stderr\n" + Files.readString(err));
            }
        } finally {
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
