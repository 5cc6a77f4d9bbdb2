package dev.weft.samples.net;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts the other nodes of a distributed sample as JVMs of their own, on this machine. */
final class Jvms implements AutoCloseable {
    private final List<Process> started = new ArrayList<>();

    /** Starts {@code main} with {@code args} in a new JVM on this JVM's class path; its output is shown here. */
    Process start(Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        started.add(p);
        return p;
    }

    /** Waits for every started JVM to end; false if one did not end in time or failed. */
    boolean awaitAll(long seconds) throws InterruptedException {
        boolean ok = true;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (Process p : started) {
            long left = deadline - System.nanoTime();
            ok &= p.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS) && p.exitValue() == 0;
        }
        return ok;
    }

    /** Kills what is still running. */
    @Override
    public void close() {
        for (Process p : started) {
            p.destroyForcibly();
        }
    }
}
