package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.delivery.ChildJvm;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a JVM option does to deadlock reports: said once, and never a report too early. */
class DeadlockJvmOptionsTest {
    @TempDir
    Path dir;

    /** With System.gc() disabled, the probe's collection does nothing: the run waits, and the log says why. */
    @Test
    @Timeout(120)
    void withoutSystemGcTheRunWaitsAndTheLogSaysWhy() throws Exception {
        String classpath = location(Channel.class) + File.pathSeparator + location(DeadlockProbeChild.class);
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(100),
                List.of("-XX:+DisableExplicitGC", "-cp", classpath, DeadlockProbeChild.class.getName()));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("waiting", r.stdout().strip(), r::toString);
        assertTrue(r.stderr().contains("System.gc() is disabled (-XX:+DisableExplicitGC)"), r::toString);
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
