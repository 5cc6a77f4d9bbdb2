package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Runs an unwoven program in a child JVM with {@code -javaagent:csp-weaver.jar}, the standalone jar alone. */
@Timeout(120)
class AgentEndToEndTest {
    private static Path agentJar;

    @TempDir
    Path dir;

    @BeforeAll
    static void findTheStandaloneJar() {
        agentJar = DemoPrograms.weaverJar();
    }

    private ChildJvm.Result runWithAgent(Path classes, String mainClass) throws Exception {
        return runWithAgent("", classes, mainClass);
    }

    /** As {@link #runWithAgent(Path, String)} with the agent's {@code options} (after {@code =}), if any. */
    private ChildJvm.Result runWithAgent(String options, Path classes, String mainClass) throws Exception {
        return ChildJvm.run(dir, Duration.ofSeconds(60), List.of("-javaagent:" + agentJar
                + (options.isEmpty() ? "" : "=" + options),
                "-cp", classes + File.pathSeparator + DemoPrograms.coreClasses(), mainClass));
    }

    @Test
    void theAgentWeavesTheProgramAsItLoads() throws Exception {
        ChildJvm.Result r = runWithAgent(DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM), "demo.Sum");
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(DemoPrograms.SUM_OUTPUT, r.lines(), r.toString());
        assertFalse(r.stderr().contains("weft agent:"), r.toString());
    }

    @Test
    void fibersSpinningForeverInEmptyLoopsLetTheOthersRunWhenWovenPreemptively() throws Exception {
        ChildJvm.Result r = runWithAgent("preemptive", DemoPrograms.compile(dir, "Spin", DemoPrograms.SPIN),
                "demo.Spin");
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(DemoPrograms.SPIN_OUTPUT, r.lines(), r.toString());
        assertFalse(r.stderr().contains("weft agent:"), r.toString());
    }

    @Test
    void anAgentAttachedToARunningJvmWeavesTheClassesLoadedAfterwards() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        DemoPrograms.compile(dir, "Attach", DemoPrograms.ATTACH);
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60), List.of("-Djdk.attach.allowAttachSelf=true",
                "-cp", classes + File.pathSeparator + DemoPrograms.coreClasses(), "demo.Attach", agentJar.toString()));
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(DemoPrograms.SUM_OUTPUT, r.lines(), r.toString());
    }

    @Test
    void weaveErrorsArePrintedAndTheJvmGoesOn() throws Exception {
        ChildJvm.Result r = runWithAgent(DemoPrograms.compile(dir, "Bad", DemoPrograms.BAD), "demo.Bad");
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(List.of("loaded Bad"), r.lines(), r.toString());
        assertTrue(r.stderr().lines().anyMatch(
                l -> l.startsWith("weft agent: demo/Bad.java:" + DemoPrograms.BAD_LINE + ": ")), r.toString());
    }

    @Test
    void pausableCodeTheAgentRefusedFailsSayingTheAgentLeftItUnwoven() throws Exception {
        ChildJvm.Result r = runWithAgent(DemoPrograms.compile(dir, "BadRun", DemoPrograms.BAD_RUN), "demo.BadRun");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stderr().contains("weft agent: demo/BadRun.java:"), r.toString());
        assertTrue(r.stderr().contains("the weft agent is running but left the class unwoven"), r.toString());
        assertFalse(r.stderr().contains("run with -javaagent"), r.toString());
    }

    @Test
    void aWovenClassSurvivesRetransformationByAnotherAgent() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        DemoPrograms.compile(dir, "Retransform", DemoPrograms.RETRANSFORM);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", "demo.Retransform");
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        Path other = dir.resolve("retransform.jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(other), manifest)) {
            jar.putNextEntry(new JarEntry("demo/Retransform.class"));
            jar.write(Files.readAllBytes(classes.resolve("demo/Retransform.class")));
        }
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60), List.of("-javaagent:" + agentJar,
                "-javaagent:" + other, "-cp", classes + File.pathSeparator + DemoPrograms.coreClasses(),
                "demo.Retransform"));
        assertEquals(0, r.exitCode(), r.toString());
        List<String> twice = new ArrayList<>(DemoPrograms.SUM_OUTPUT);
        twice.addAll(DemoPrograms.SUM_OUTPUT);
        assertEquals(twice, r.lines(), r.toString());
    }
}
