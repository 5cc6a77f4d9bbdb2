package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code java -jar csp-weaver.jar dump PID} prints the fiber dump of a running JVM, as the README says. */
class DumpCommandTest {
    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    @Timeout(120)
    void dumpPidPrintsTheFibersOfAnotherJvm() throws Exception {
        String classpath = location(dev.weft.csp.Channel.class) + File.pathSeparator + location(DumpTarget.class);
        Process child = new ProcessBuilder(List.of(ChildJvm.java(), "-cp", classpath, DumpTarget.class.getName()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("ready", lines.readLine(), "the child's fiber parked");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = WeaveCli.run(new String[] {"dump", Long.toString(child.pid())},
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            String dump = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
            assertTrue(dump.startsWith("Weft scheduler weft-"), dump);
            assertTrue(dump.contains("[order-desk]\" parked, waiting on the input of channel #"), dump);
            assertTrue(dump.contains("at dev.weft.delivery.DumpTarget.waitForOrders(DumpTarget.java:"), dump);
        } finally {
            child.getOutputStream().close(); // the child ends
            if (!child.waitFor(20, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void dumpWithoutAPidSaysHowToUseIt() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(WeaveCli.USAGE, WeaveCli.run(new String[] {"dump"}, new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("dump needs the process id"), err::toString);
    }
}
