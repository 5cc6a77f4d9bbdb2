package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker JVM that records nothing does not set the flight recorder's machinery going (on JDK 17 the first
 * event class to load costs some 200 classes and a few hundred milliseconds of processor time): neither Weft's events nor Netty's
 * load there. A worker asked to record keeps Netty's events.
 */
class WorkerFlightRecorderTest {
    /** The class the recorder loads to register event classes: loaded only once one is. */
    private static final String EVENT_REGISTRY = " jdk.jfr.internal.MetadataRepository ";

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aWorkerThatRecordsNothingLoadsNoEventClass() throws Exception {
        Path log = dir.resolve("classes.log");
        Launcher launcher = Launcher.builder().nodes(2).jvmArgs("-Xlog:class+load:file=" + log).build();
        assertEquals(10L, launcher.run(LauncherTest.SumOfIndices.class, "10"));
        List<String> loaded = Files.readAllLines(log);
        assertTrue(loaded.stream().anyMatch(l -> l.contains(" io.netty.buffer.")), "the worker used Netty's buffers");
        assertEquals(List.of(), loaded.stream().filter(l -> l.contains(EVENT_REGISTRY)).toList(),
                "the flight recorder's event registry loaded in a worker that records nothing");
    }

    @Test
    void nettysEventsStayOnForAWorkerThatRecordsAndAUserMaySayOtherwise() {
        List<String> plain = Launcher.builder().jvmArgs("-Dio.netty.jfr.enabled=true").build()
                .workerCommand("127.0.0.1:1", "P", List.of());
        assertTrue(plain.indexOf("-Dio.netty.jfr.enabled=false") < plain.indexOf("-Dio.netty.jfr.enabled=true"),
                "the user's setting comes last, and wins: " + plain);
        List<String> recording = Launcher.builder().jvmArgs("-XX:StartFlightRecording").build()
                .workerCommand("127.0.0.1:1", "P", List.of());
        assertFalse(recording.contains("-Dio.netty.jfr.enabled=false"), recording.toString());
    }
}
