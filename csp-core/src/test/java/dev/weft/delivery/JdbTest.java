package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steps over a call that pauses with the JDK's own debugger, {@code jdb}, driven line by line: the step
 * must not land on another line of the method (before woven code had line numbers of its own, it landed on
 * the method's last line), but in the caller, on the line that called it.
 */
@Timeout(120)
class JdbTest {
    @TempDir
    Path dir;

    /** The end of jdb's prompt while a thread is stopped (at a breakpoint or a step). */
    private static final String STOPPED = "[1] ";

    /** jdb's output so far, read by a thread of its own. */
    private final StringBuilder output = new StringBuilder();

    @Test
    void steppingOverAPausingCallLeavesTheMethodFromTheCallsLine() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Steps", DemoPrograms.STEPS);
        Path woven = dir.resolve("woven");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, WeaveCli.run(new String[] {"-cp", DemoPrograms.coreClasses().toString(), classes.toString(),
                "-d", woven.toString()}, new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString(StandardCharsets.UTF_8));
        Path jdb = Path.of(ChildJvm.java()).resolveSibling("jdb");
        assertTrue(Files.isExecutable(jdb), "the JDK's jdb at " + jdb);

        Process p = new ProcessBuilder(jdb.toString(), "-classpath",
                woven + File.pathSeparator + DemoPrograms.coreClasses(), "demo.Steps").redirectErrorStream(true).start();
        Thread reader = new Thread(() -> copy(p.getInputStream()));
        reader.setDaemon(true);
        reader.start();
        try {
            // jdb takes a command once it shows the stopped thread's prompt ("weft-single-1-0[1] ").
            send(p, "stop at demo.Steps:" + DemoPrograms.STEPS_READ);
            send(p, "run");
            awaitOutput(STOPPED, 1);
            // The first read finds the writer waiting: go on to the loop's next pass, back on the read.
            send(p, "cont");
            awaitOutput(STOPPED, 2);
            send(p, "next"); // this read pauses the fiber
            String step = awaitOutput(STOPPED, 3);
            String where = step.substring(step.lastIndexOf("Step completed"));
            assertTrue(where.contains("demo.Steps.lambda$main$") && where.contains("line=" + DemoPrograms.STEPS_SUM_CALL),
                    "the step leaves sum from the read's line into the caller's call: " + where);
            send(p, "cont");
            send(p, "quit");
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "jdb quits");
        } finally {
            p.destroyForcibly();
        }
    }

    private void copy(InputStream in) {
        byte[] b = new byte[4096];
        try {
            for (int n; (n = in.read(b)) > 0; ) {
                synchronized (output) {
                    output.append(new String(b, 0, n, StandardCharsets.UTF_8));
                    output.notifyAll();
                }
            }
        } catch (IOException closed) {
            // jdb ended
        }
    }

    private static void send(Process p, String command) throws IOException {
        p.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
    }

    /** Waits until {@code text} has appeared {@code times} times in jdb's output; returns the output so far. */
    private String awaitOutput(String text, int times) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        synchronized (output) {
            while (count(output.toString(), text) < times) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new AssertionError("jdb did not print '" + text + "' " + times + " time(s):\n" + output);
                }
                output.wait(left);
            }
            return output.toString();
        }
    }

    private static int count(String s, String text) {
        int n = 0;
        for (int i = s.indexOf(text); i >= 0; i = s.indexOf(text, i + 1)) {
            n++;
        }
        return n;
    }
}
