package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.tools.ExecFileLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage of pausable code with the real JaCoCo: its agent records a run of {@link DemoPrograms#SUM},
 * its analyzer reads the execution data against class files as {@code jacoco:report} does, and the lines
 * of the pausable method {@code sum} must count as covered. Woven class files (the Maven goal, the CLI) are
 * both what runs and what is reported; with the weaver's agent, JaCoCo must see the class files as on disk
 * whichever of the two agents comes first, or the report finds the execution data does not match.
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
        List<String> args = new ArrayList<>(agents);
        args.addAll(List.of("-cp", classes + File.pathSeparator + DemoPrograms.coreClasses(), "demo.Sum"));
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
        CoverageBuilder coverage = new CoverageBuilder();
        new Analyzer(data.getExecutionDataStore(), coverage).analyzeAll(classes.resolve("demo").toFile());
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

    @Test
    void wovenClassFilesAreRunAndReportedWithTheirPausableLinesCovered() throws Exception {
        Path classes = DemoPrograms.compile(dir, "Sum", DemoPrograms.SUM);
        Path woven = dir.resolve("woven");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, WeaveCli.run(new String[] {"-cp", DemoPrograms.coreClasses().toString(), classes.toString(),
                "-d", woven.toString()}, quiet, new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString());

        Path exec = run(woven, List.of(jacoco()));

        assertThePausableMethodIsCovered(sumCoverage(exec, woven));
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
