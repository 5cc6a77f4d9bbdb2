package dev.weft.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.Weaver;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.apache.maven.project.MavenProject;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.OfflineInstrumentationAccessGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The goal with the real engine on classes javac wrote. {@code @Pausable} is declared under its real name
 * (the engine knows it by name), since csp-core is built after the plugin.
 */
class RealEngineMojoTest {
    private static final String PAUSABLE = """
            package dev.weft.csp;

            @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
            public @interface Pausable {
            }
            """;
    private static final String WORKER = """
            package app;

            import dev.weft.csp.Pausable;

            public class Worker {
                @Pausable
                public int twice(int x) {
                    int y = step(x);
                    return y + step(x);
                }

                @Pausable
                int step(int x) {
                    return x;
                }
            }
            """;
    private static final String WORKER_TEST = """
            package app;

            import dev.weft.csp.Pausable;

            public class WorkerTest {
                @Pausable
                int check() {
                    return new Worker().twice(2);
                }
            }
            """;
    private static final String BAD = """
            package app;

            import dev.weft.csp.Pausable;

            public class Bad {
                @Pausable
                synchronized int locked() {
                    return new Worker().twice(1);
                }
            }
            """;

    @TempDir
    Path dir;
    private final List<String> errors = new ArrayList<>();

    private static void compile(Path classes, Path classpath, Map<String, String> sources) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = classes.resolveSibling("src-" + classes.getFileName()).resolve(e.getKey());
            Files.createDirectories(f.getParent());
            files.add(Files.writeString(f, e.getValue()));
        }
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter messages = new StringWriter();
        boolean ok = javac.getTask(messages, null, null,
                List.of("--release", "17", "-g", "-cp", classpath.toString(), "-d", classes.toString()), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(files.toArray(Path[]::new))).call();
        assertTrue(ok, messages.toString());
    }

    private WeaveMojo mojo(Path classes, Path testClasses) throws ReflectiveOperationException {
        return mojo(classes, testClasses, false);
    }

    private WeaveMojo mojo(Path classes, Path testClasses, boolean preemptive) throws ReflectiveOperationException {
        return mojo(classes, testClasses, preemptive, Set.of());
    }

    private WeaveMojo mojo(Path classes, Path testClasses, boolean preemptive, Set<Artifact> dependencies)
            throws ReflectiveOperationException {
        MavenProject project = new MavenProject();
        project.setArtifactId("demo");
        project.setArtifacts(new LinkedHashSet<>(dependencies));
        project.getBuild().setDirectory(classes.getParent().toString());
        project.getBuild().setOutputDirectory(classes.toString());
        project.getBuild().setTestOutputDirectory(testClasses.toString());
        WeaveMojo mojo = new WeaveMojo();
        for (Map.Entry<String, Object> e : Map.<String, Object>of("project", project, "preemptive", preemptive,
                "classesDirectory", classes.toFile(), "testClassesDirectory", testClasses.toFile()).entrySet()) {
            Field f = AbstractWeaveMojo.class.getDeclaredField(e.getKey());
            f.setAccessible(true);
            f.set(mojo, e.getValue());
        }
        mojo.setLog(new SystemStreamLog() {
            @Override
            public void error(CharSequence content) {
                errors.add(content.toString());
            }

            @Override
            public void info(CharSequence content) {
            }
        });
        return mojo;
    }

    @Test
    void weavesMainAndTestClassesThenSkipsThemNextTime() throws Exception {
        Path classes = dir.resolve("target/classes");
        Path testClasses = dir.resolve("target/test-classes");
        compile(classes, classes, Map.of("dev/weft/csp/Pausable.java", PAUSABLE, "app/Worker.java", WORKER));
        compile(testClasses, classes, Map.of("app/WorkerTest.java", WORKER_TEST));
        Path worker = classes.resolve("app/Worker.class");
        Path workerTest = testClasses.resolve("app/WorkerTest.class");

        mojo(classes, testClasses).execute();

        assertTrue(Weaver.isWoven(Files.readAllBytes(worker)));
        assertTrue(Weaver.isWoven(Files.readAllBytes(workerTest)));
        assertFalse(Weaver.isWoven(Files.readAllBytes(classes.resolve("dev/weft/csp/Pausable.class"))));
        byte[] once = Files.readAllBytes(worker);
        mojo(classes, testClasses).execute();
        assertArrayEquals(once, Files.readAllBytes(worker));
    }

    @Test
    void errorsFailTheBuildAndLeaveTheClassesAsJavacWroteThem() throws Exception {
        Path classes = dir.resolve("target/classes");
        compile(classes, classes, Map.of("dev/weft/csp/Pausable.java", PAUSABLE, "app/Worker.java", WORKER,
                "app/Bad.java", BAD));
        byte[] worker = Files.readAllBytes(classes.resolve("app/Worker.class"));

        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(classes, dir.resolve("target/test-classes")).execute());

        assertTrue(e.getMessage().contains("1 error"), e.getMessage());
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("app/Bad.java:"), errors.toString());
        assertArrayEquals(worker, Files.readAllBytes(classes.resolve("app/Worker.class")));
    }

    @Test
    void switchingPreemptiveOnFailsTheBuildInsteadOfKeepingTheOldWeaving() throws Exception {
        Path classes = dir.resolve("target/classes");
        Path testClasses = dir.resolve("target/test-classes");
        compile(classes, classes, Map.of("dev/weft/csp/Pausable.java", PAUSABLE, "app/Worker.java", WORKER));
        mojo(classes, testClasses, false).execute();
        byte[] cooperative = Files.readAllBytes(classes.resolve("app/Worker.class"));

        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(classes, testClasses, true).execute());

        assertTrue(e.getMessage().contains("1 error"), e.getMessage());
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("app/Worker.java:"), errors.get(0));
        assertTrue(errors.get(0).contains("Worker was woven with preemptive=false but this weave asks"
                + " preemptive=true"), errors.get(0));
        assertArrayEquals(cooperative, Files.readAllBytes(classes.resolve("app/Worker.class")));
    }

    /** JaCoCo's offline instrumentation of a class file, as {@code jacoco:instrument} writes it. */
    private static byte[] instrumented(byte[] classFile) throws IOException {
        return new Instrumenter(new OfflineInstrumentationAccessGenerator()).instrument(classFile, "test");
    }

    /** What {@code jacoco:instrument} does: keeps each class file under generated-classes/jacoco, instruments it. */
    private static void jacocoInstrument(Path classes) throws IOException {
        Path originals = classes.resolveSibling("generated-classes/jacoco");
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                Path original = originals.resolve(classes.relativize(file).toString());
                Files.createDirectories(original.getParent());
                Files.copy(file, original, StandardCopyOption.REPLACE_EXISTING);
                Files.write(file, instrumented(Files.readAllBytes(original)));
            }
        }
    }

    /** JaCoCo's runtime, which instrumented classes call, as a test dependency of the project. */
    private static Set<Artifact> jacocoRuntime() throws Exception {
        DefaultArtifactHandler jar = new DefaultArtifactHandler("jar");
        jar.setAddedToClasspath(true);
        Artifact runtime = new DefaultArtifact("org.jacoco", "org.jacoco.agent", "0.8.14", "test", "jar", "runtime", jar);
        runtime.setFile(Path.of(Class.forName("org.jacoco.agent.rt.RT").getProtectionDomain().getCodeSource()
                .getLocation().toURI()).toFile());
        return Set.of(runtime);
    }

    @Test
    void weavesClassesJacocoInstrumentedBeforeTheWeave() throws Exception {
        Path classes = dir.resolve("target/classes");
        Path testClasses = dir.resolve("target/test-classes");
        compile(classes, classes, Map.of("dev/weft/csp/Pausable.java", PAUSABLE, "app/Worker.java", WORKER));
        jacocoInstrument(classes);

        mojo(classes, testClasses, false, jacocoRuntime()).execute();

        byte[] worker = Files.readAllBytes(classes.resolve("app/Worker.class"));
        assertTrue(Weaver.isWoven(worker), errors.toString());
        assertTrue(new String(worker, StandardCharsets.ISO_8859_1).contains("$jacocoData"), "JaCoCo's probes kept");
    }

    @Test
    void jacocoInstrumentingClassesAnEarlierBuildWoveFailsTheBuildSayingToClean() throws Exception {
        Path classes = dir.resolve("target/classes");
        Path testClasses = dir.resolve("target/test-classes");
        compile(classes, classes, Map.of("dev/weft/csp/Pausable.java", PAUSABLE, "app/Worker.java", WORKER));
        mojo(classes, testClasses).execute(); // the earlier build
        jacocoInstrument(classes); // a build without clean: javac had nothing to compile

        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(classes, testClasses, false, jacocoRuntime()).execute());

        assertTrue(e.getMessage().contains("(app/Worker.class)") && e.getMessage().contains("mvn clean"),
                e.getMessage());
    }
}
