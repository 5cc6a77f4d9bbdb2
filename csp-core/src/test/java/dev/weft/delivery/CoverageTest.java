package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ICoverageNode.CounterEntity;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.OfflineInstrumentationAccessGenerator;
import org.jacoco.core.tools.ExecFileLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage of pausable code with the real JaCoCo: its agent records a run of {@link DemoPrograms#SUM},
 * its analyzer reads the execution data against class files as {@code jacoco:report} does, and the lines
 * of the pausable method {@code sum} must count as covered. Woven class files (the Maven goal, the CLI) are
 * both what runs and what is reported; with the weaver's agent, JaCoCo must see the class files as on disk
 * whichever of the two agents comes first, or the report finds the execution data does not match. With
 * JaCoCo's offline instrumentation before build-time weaving, the report on javac's class files counts what
 * the agents' report counts.
 */
@Timeout(180)
class CoverageTest {
    @TempDir
    Path dir;

    private static Path jacocoAgent() throws URISyntaxException, ClassNotFoundException {
        return Path.of(Class.forName("org.jacoco.agent.rt.RT").getProtectionDomain().getCodeSource().getLocation()
                .toURI());
    }

    /** Runs demo.Sum from {@code classes} with the agents given, in that order; returns JaCoCo's exec file. */
    private Path run(Path classes, List<String> agents) throws Exception {
        return run(classes, agents, List.of());
    }

    /** Runs demo.Sum from {@code classes} and {@code libraries} with these JVM options; returns JaCoCo's exec file. */
    private Path run(Path classes, List<String> options, List<Path> libraries) throws Exception {
        List<String> args = new ArrayList<>(options);
        List<String> classpath = new ArrayList<>(List.of(classes.toString(), DemoPrograms.coreClasses().toString()));
        libraries.forEach(l -> classpath.add(l.toString()));
        args.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), "demo.Sum"));
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60), args);
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(DemoPrograms.SUM_OUTPUT, r.lines(), r.toString());
        assertFalse(r.stderr().contains("weft agent:"), r.toString());
        return dir.resolve("jacoco.exec");
    }

    private String jacoco() throws Exception {
        return "-javaagent:" + jacocoAgent() + "=destfile=" + dir.resolve("jacoco.exec") + ",includes=demo.*";
    }

    private static String weft() {
        return "-javaagent:" + DemoPrograms.weaverJar();
    }

    /** Analyses {@code exec} against the class files under {@code classes}, as a report would. */
    private static IClassCoverage sumCoverage(Path exec, Path classes) throws Exception {
        ExecFileLoader data = new ExecFileLoader();
        data.load(exec.toFile());
        return coverage(data.getExecutionDataStore(), classes);
    }

    /** demo.Sum's coverage: the class files under {@code classes} analysed with {@code data}; all of it matches. */
    private static IClassCoverage coverage(ExecutionDataStore data, Path classes) throws IOException {
        CoverageBuilder coverage = new CoverageBuilder();
        new Analyzer(data, coverage).analyzeAll(classes.resolve("demo").toFile());
        IClassCoverage sum = coverage.getClasses().stream().filter(c -> c.getName().equals("demo/Sum"))
                .findFirst().orElse(null);
        assertNotNull(sum, "JaCoCo found demo/Sum");
        assertTrue(coverage.getNoMatchClasses().isEmpty(), "execution data does not match the class files of "
                + coverage.getNoMatchClasses().stream().map(IClassCoverage::getName).toList());
        return sum;
    }

    /** Every line of the pausable method {@code sum} is covered, and so is most of the class. */
    private static void assertThePausableMethodIsCovered(IClassCoverage sum) {
        List<IMethodCoverage> methods = sum.getMethods().stream().filter(m -> m.getName().equals("sum")).toList();
        IMethodCoverage withLines = methods.stream().filter(m -> m.getLineCounter().getTotalCount() > 0)
                .findFirst().orElse(null);
        assertNotNull(withLines, "a method sum with lines, among " + methods.size() + " named sum");
        for (int line = withLines.getFirstLine(); line <= withLines.getLastLine(); line++) {
            int status = sum.getLine(line).getStatus();
            assertTrue(status != ICounter.NOT_COVERED, "line " + line + " of sum is not covered");
        }
        assertEquals(0, withLines.getLineCounter().getMissedCount(), "missed lines in sum");
        ICounter lines = sum.getLineCounter();
        assertTrue(lines.getCoveredCount() >= lines.getTotalCount() - 1,
                "lines of demo.Sum covered: " + lines.getCoveredCount() + " of " + lines.getTotalCount());
    }

    /** Weaves the classes under {@code in} into {@code out} with the command line, csp-core on its classpath. */
    private static Path weave(Path in, Path out, Path... libraries) {
        List<String> classpath = new ArrayList<>(List.of(DemoPrograms.coreClasses().toString()));
        for (Path l : libraries) {
            classpath.add(l.toString());
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, WeaveCli.run(new String[] {"-cp", String.join(File.pathSeparator, classpath), in.toString(),
                "-d", out.toString()}, quiet, new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString());
        return out;
    }

    @Test
    void wovenClassFilesAreRunAndReportedWithTheirPausableLinesCovered() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        Path woven = weave(classes, dir.resolve("woven"));

        Path exec = run(woven, List.of(jacoco()));

        assertThePausableMethodIsCovered(sumCoverage(exec, woven));
    }

    /**
     * Build-time weaving with a report of the source (docs/weaving.md, "Coverage"): JaCoCo's offline
     * instrumentation first ({@code jacoco:instrument}), then the weaver, then a run with JaCoCo's runtime on
     * the classpath; the report reads the class files as javac wrote them ({@code
     * jacoco:restore-instrumented-classes}). Its counters, totals and covered, are those of a run with both
     * agents, whose JaCoCo instruments the class before the weaver does: the source's, not the weave's.
     */
    @Test
    void instrumentedBeforeWeavingTheReportCountsTheSourceAndCoversWhatTheAgentsDo() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        // JaCoCo's runtime on the weave classpath, as on Maven's test classpath: the instrumented classes call it.
        Path woven = weave(instrument(classes, dir.resolve("instrumented")), dir.resolve("instrumented-woven"),
                jacocoAgent());
        Path offline = Files.move(run(woven, List.of("-Djacoco-agent.destfile=" + dir.resolve("jacoco.exec")),
                List.of(jacocoAgent())), dir.resolve("offline.exec"));
        Path agents = run(classes, List.of(jacoco(), weft()));

        IClassCoverage report = sumCoverage(offline, classes);
        IClassCoverage both = sumCoverage(agents, classes);
        for (CounterEntity counter : CounterEntity.values()) {
            assertEquals(both.getCounter(counter), report.getCounter(counter), counter + " of demo.Sum, with both"
                    + " agents and with JaCoCo's instrumentation before the weave");
        }
        assertTrue(report.getBranchCounter().getCoveredCount() > 0, "no branch of demo.Sum covered");
        // What the recipe avoids: a report of the woven class files counts the weaver's branches too.
        IClassCoverage source = coverage(new ExecutionDataStore(), classes);
        IClassCoverage wovenOnly = coverage(new ExecutionDataStore(), weave(classes, dir.resolve("woven")));
        assertTrue(wovenOnly.getBranchCounter().getTotalCount() > source.getBranchCounter().getTotalCount(),
                "branches of demo.Sum woven " + wovenOnly.getBranchCounter().getTotalCount() + ", in source "
                + source.getBranchCounter().getTotalCount());
        assertThePausableMethodIsCovered(report);
    }

    /** JaCoCo's offline instrumentation of every class under {@code in}, as {@code jacoco:instrument} does it. */
    private static Path instrument(Path in, Path out) throws IOException {
        Instrumenter instrumenter = new Instrumenter(new OfflineInstrumentationAccessGenerator());
        try (Stream<Path> files = Files.walk(in)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                Path target = out.resolve(in.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.write(target, instrumenter.instrument(Files.readAllBytes(file), file.toString()));
            }
        }
        return out;
    }

    @Test
    void withJacocosAgentFirstTheReportOnTheUnwovenClassesIsRight() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        Path exec = run(classes, List.of(jacoco(), weft()));
        assertThePausableMethodIsCovered(sumCoverage(exec, classes));
    }

    @Test
    void withTheWeaversAgentFirstTheReportOnTheUnwovenClassesIsRightToo() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        Path exec = run(classes, List.of(weft(), jacoco()));
        assertThePausableMethodIsCovered(sumCoverage(exec, classes));
    }
}
