package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.delivery.ChildJvm;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link StackOverflowError} inside a channel operation or a select leaves no lock held and the channel
 * consistent: {@link StackOverflowDrill} provokes the error at every point of the operations, in a child JVM
 * with small stacks, interpreted (where every call is a frame) and compiled.
 */
class StackOverflowTest {
    private static final String[] SCENARIOS = {"write", "read", "select", "buffered", "fiber", "altPartner"};

    @TempDir
    Path dir;

    @Test
    @Timeout(620)
    void interpreted() throws Exception {
        drill("-Xint", 40, 4);
    }

    @Test
    @Timeout(620)
    void compiled() throws Exception {
        drill("-Xmixed", 15, 4);
    }

    /** Runs every scenario in one child JVM: {@code trials} channels each, {@code dives} dives per channel. */
    private void drill(String mode, int trials, int dives) throws Exception {
        String classpath = location(Channel.class) + File.pathSeparator + location(StackOverflowDrill.class);
        // No reserved stack zone: at every overflow that reaches it the JVM walks the whole stack (thousands of
        // frames in a dive) for a JDK method annotated @ReservedStackAccess (its j.u.c locks), most of the drill's
        // processor time; the operations use none (their locks are Weft's own), so they overflow where they would.
        List<String> args = new ArrayList<>(List.of("-Xss256k", mode, "-XX:-StackTraceInThrowable", // cheap errors
                "-XX:StackReservedPages=0", "-cp", classpath, StackOverflowDrill.class.getName(), String.valueOf(trials), String.valueOf(dives)));
        args.addAll(List.of(SCENARIOS));
        // The drill reports a hang itself (a trial past 60 s); this bound is for a loaded machine, where the child
        // gets little time: at load 30 on 2 cores four of the six scenarios took the whole of 300 s.
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(600), args);
        assertEquals(0, r.exitCode(), r::toString);
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
