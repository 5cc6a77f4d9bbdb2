package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JFR commands docs/guide.md documents ("Scheduling, blocking calls, fiber dumps"), run as a user
 * would against a child JVM: its recording holds Weft's events. Event settings that the settings file does not
 * name need a {@code +}: without it the JVM ignores them and records no spawn.
 */
@Timeout(120)
class JfrTest {
    /** The documented event options: spawns and ends are off by default (there can be millions). */
    static final List<String> WEFT_EVENTS = List.of("+dev.weft.FiberSpawn#enabled=true", "+dev.weft.FiberEnd#enabled=true");

    @TempDir
    Path dir;

    private static String classPath() {
        return DemoPrograms.coreClasses() + File.pathSeparator
                + Path.of(SpawnsOnCue.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    }

    /** Events of the recording {@code jfr}, counted by name, Weft's only. */
    private static Map<String, Long> weftEvents(Path jfr) throws IOException {
        return RecordingFile.readAllEvents(jfr).stream().map(e -> e.getEventType().getName())
                .filter(n -> n.startsWith("dev.weft.")).collect(Collectors.groupingBy(Function.identity(),
                        Collectors.counting()));
    }

    @Test
    void jcmdStartsARecordingOfARunningProgramWithWeftsEvents() throws Exception {
        Path recording = dir.resolve("weft.jfr");
        Process child = new ProcessBuilder(ChildJvm.java(), "-cp", classPath(), SpawnsOnCue.class.getName())
                .redirectError(dir.resolve("child.err").toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
             Writer in = new java.io.OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            assertEquals("ready", out.readLine());
            List<String> start = new ArrayList<>(List.of("JFR.start", "name=weft", "settings=profile"));
            start.addAll(WEFT_EVENTS);
            jcmd(child.pid(), start);
            in.write("go\n");
            in.flush();
            assertEquals("done", out.readLine());
            jcmd(child.pid(), List.of("JFR.stop", "name=weft", "filename=" + recording));
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the program ends with its input");
        Map<String, Long> events = weftEvents(recording);
        assertTrue(events.getOrDefault("dev.weft.FiberSpawn", 0L) >= SpawnsOnCue.FIBERS, events.toString());
        assertTrue(events.getOrDefault("dev.weft.FiberEnd", 0L) >= SpawnsOnCue.FIBERS, events.toString());
    }

    @Test
    void startFlightRecordingRecordsWeftsEventsFromTheStart() throws Exception {
        Path recording = dir.resolve("weft.jfr");
        String flag = "-XX:StartFlightRecording:filename=" + recording + ",settings=profile," + String.join(",", WEFT_EVENTS);
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60),
                List.of(flag, "-cp", classPath(), SpawnsOnCue.class.getName(), "now"));
        assertEquals(0, r.exitCode(), r.toString());
        Map<String, Long> events = weftEvents(recording);
        assertTrue(events.getOrDefault("dev.weft.FiberSpawn", 0L) >= SpawnsOnCue.FIBERS, events.toString());
        assertTrue(events.getOrDefault("dev.weft.FiberEnd", 0L) >= SpawnsOnCue.FIBERS, events.toString());
    }

    /**
     * While no recorder is up, Weft's event classes stay unloaded: on JDK 17 the first one to load sets the
     * recorder's machinery going (some 200 classes, a third of a second of a short program's processor time).
     */
    @Test
    void aProgramThatRecordsNothingLoadsNoEventClass() throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60),
                List.of("-Xlog:class+load", "-cp", classPath(), SpawnsOnCue.class.getName(), "now"));
        assertEquals(0, r.exitCode(), r.toString());
        List<String> loaded = r.lines();
        assertTrue(loaded.stream().anyMatch(l -> l.contains(" dev.weft.csp.runtime.RuntimeEvents ")),
                "the runtime's events front was used");
        List<String> events = loaded.stream()
                .filter(l -> l.contains("dev.weft.csp.runtime.RuntimeEvents$Fiber")
                        || l.contains(" jdk.jfr.internal.MetadataRepository "))
                .collect(Collectors.toList());
        assertEquals(List.of(), events, "event classes (or the recorder's registry of them) loaded with no recorder up");
    }

    private void jcmd(long pid, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        command.add(Long.toString(pid));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("jcmd.out").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jcmd ended");
        String output = java.nio.file.Files.readString(dir.resolve("jcmd.out"));
        assertEquals(0, p.exitValue(), output);
        assertTrue(!output.contains("Could not") && !output.contains("Exception"), output);
    }
}
