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

/**
 * No Weft thread outlives what needs it: closing the last scheduler ends them all, and an application torn
 * down as {@code mvn exec:java} does it (interrupt every thread of the program, wait for each) ends promptly,
 * the default scheduler included.
 */
class ThreadsEndTest {
    @TempDir
    Path dir;

    private ChildJvm.Result child(String mode) throws Exception {
        String classpath = location(Channel.class) + File.pathSeparator + location(ThreadsEndChild.class);
        return ChildJvm.run(dir, Duration.ofSeconds(60), List.of("-cp", classpath, ThreadsEndChild.class.getName(),
                mode));
    }

    @Test
    @Timeout(90)
    void noWeftThreadOutlivesTheLastClosedScheduler() throws Exception {
        ChildJvm.Result r = child("close");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("ended", r.stdout().strip(), r::toString);
        assertTrue(r.stderr().contains("nobody joins this (expected)"), "reported as its run ended: " + r);
    }

    @Test
    @Timeout(90)
    void interruptedLikeExecJavaDoesEveryWeftThreadEnds() throws Exception {
        ChildJvm.Result r = child("exec");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("ended", r.stdout().strip(), r::toString);
        assertTrue(r.stderr().contains("outside every run, nobody joins this (expected)"),
                "reported as the application went away: " + r);
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
