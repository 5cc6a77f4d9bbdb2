package dev.weft.maven;

import dev.weft.weaver.ClassFinder;
import dev.weft.weaver.WeaveError;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import dev.weft.weaver.tool.ClassTransform;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What goals {@code weave} and {@code weave-main} share: turns the {@code @Pausable} methods of
 * {@code target/classes} and {@code target/test-classes} (whichever exist) into resumable fibers, in place.
 * The goals differ only in the phase they bind to, so that main classes are woven as soon as they are
 * compiled and test classes as soon as they are.
 *
 * <p>Callees are resolved through both output directories, then the test classpath. Classes woven by an
 * earlier build are skipped; a class woven with the other {@code preemptive} setting is an error (woven
 * code cannot be woven again: the build says to recompile). Every error of every class is logged as
 * {@code com/acme/Foo.java:42: message}; then the build fails, and no class file is changed. A build whose
 * {@code jacoco:instrument} instrumented classes an earlier build wove fails too ({@link JacocoOriginals}).
 */
abstract class AbstractWeaveMojo extends AbstractMojo {
    /** The project's main classes. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true, required = true)
    private File classesDirectory;

    /** The project's test classes. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", readonly = true, required = true)
    private File testClassesDirectory;

    /**
     * Inserts a preemption check at every loop back-edge of pausable code, so that a fiber spinning in a loop
     * lets the other fibers of its carrier run. Off by default (cooperative fibers).
     */
    @Parameter(property = "weft.preemptive", defaultValue = "false")
    private boolean preemptive;

    /** Skips weaving. */
    @Parameter(property = "weft.skip", defaultValue = "false")
    private boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** The engine over a classpath; replaced by tests only. */
    Function<ClassFinder, ClassTransform> engine = classpath -> ClassTransform.of(new Weaver(classpath, preemptive));

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Weft weaving skipped (weft.skip)");
            return;
        }
        List<Path> roots = new ArrayList<>();
        for (File dir : List.of(classesDirectory, testClassesDirectory)) {
            if (dir != null && Files.isDirectory(dir.toPath())) {
                roots.add(dir.toPath());
            }
        }
        if (roots.isEmpty()) {
            getLog().info("Weft: no classes to weave");
            return;
        }
        failIfJacocoInstrumentedTheWeave();
        InPlaceWeaver.Report report;
        try (ClassPath classpath = ClassPath.open(classpath(roots))) {
            report = new InPlaceWeaver(engine.apply(classpath)).weave(roots);
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            throw new MojoExecutionException("Weft weaving failed: " + e.getMessage(), e);
        }
        fail(report.errors());
        getLog().info("Weft: " + report.classes() + " classes, " + report.woven() + " woven, "
                + report.alreadyWoven() + " already woven");
    }

    /** A report of the weave instead of the source would be silently wrong: stop the build and say why. */
    private void failIfJacocoInstrumentedTheWeave() throws MojoFailureException {
        if (project.getBuild().getDirectory() == null) {
            return;
        }
        List<String> woven;
        try {
            woven = JacocoOriginals.instrumentedWoven(Path.of(project.getBuild().getDirectory()),
                    classesDirectory.toPath());
        } catch (IOException | UncheckedIOException e) {
            throw new MojoFailureException("Weft: cannot read the class files jacoco:instrument kept: " + e.getMessage(), e);
        }
        if (!woven.isEmpty()) {
            throw new MojoFailureException("Weft: jacoco:instrument instrumented class files that an earlier build"
                    + " had woven (" + woven.get(0) + (woven.size() > 1 ? " and " + (woven.size() - 1) + " more" : "")
                    + "): javac did not compile them again, so JaCoCo's report would count the weaver's code as"
                    + " yours. Build with mvn clean (JaCoCo must instrument javac's output, before the weave)");
        }
    }

    /** Both output directories first, then the test classpath (which also names them; duplicates are dropped). */
    private List<Path> classpath(List<Path> roots) throws MojoExecutionException {
        List<Path> cp = new ArrayList<>(roots);
        try {
            for (String element : project.getTestClasspathElements()) {
                cp.add(Path.of(element));
            }
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("Weft: the test classpath is not resolved", e);
        }
        return cp;
    }

    private void fail(List<WeaveError> errors) throws MojoFailureException {
        if (errors.isEmpty()) {
            return;
        }
        for (WeaveError e : errors) {
            getLog().error(e.toString());
        }
        String n = errors.size() == 1 ? "1 error" : errors.size() + " errors";
        throw new MojoFailureException("Weft weaving found " + n + " in " + project.getArtifactId()
                + "; see above (no class file was changed)");
    }
}
