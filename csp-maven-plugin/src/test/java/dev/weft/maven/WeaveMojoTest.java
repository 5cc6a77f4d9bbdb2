package dev.weft.maven;

import static dev.weft.maven.FakeEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.tool.ClassTransform;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeaveMojoTest {
    @TempDir
    Path dir;
    private Path classes;
    private Path testClasses;
    private final FakeEngine engine = new FakeEngine();
    private final List<String> errors = new ArrayList<>();
    private final List<String> infos = new ArrayList<>();
    private final WeaveMojo mojo = new WeaveMojo();

    @BeforeEach
    void project() throws Exception {
        classes = dir.resolve("target/classes");
        testClasses = dir.resolve("target/test-classes");
        MavenProject project = new MavenProject();
        project.setArtifactId("demo");
        project.getBuild().setOutputDirectory(classes.toString());
        project.getBuild().setTestOutputDirectory(testClasses.toString());
        set("project", project);
        set("classesDirectory", classes.toFile());
        set("testClassesDirectory", testClasses.toFile());
        mojo.engine = cp -> engine;
        mojo.setLog(new SystemStreamLog() {
            @Override
            public void error(CharSequence content) {
                errors.add(content.toString());
            }

            @Override
            public void info(CharSequence content) {
                infos.add(content.toString());
            }
        });
    }

    private void set(String field, Object value) throws ReflectiveOperationException {
        Field f = AbstractWeaveMojo.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(mojo, value);
    }

    private Path file(Path root, String name, String text) throws IOException {
        Path f = root.resolve(name);
        Files.createDirectories(f.getParent());
        return Files.write(f, bytes(text));
    }

    @Test
    void weavesMainAndTestClassesInPlace() throws Exception {
        Path main = file(classes, "app/Main.class", "pause");
        Path test = file(testClasses, "app/MainTest.class", "pause");
        file(classes, "app/Plain.class", "plain");
        mojo.execute();
        assertEquals("WOVEN pause", Files.readString(main, StandardCharsets.UTF_8));
        assertEquals("WOVEN pause", Files.readString(test, StandardCharsets.UTF_8));
        assertEquals(List.of("Weft: 3 classes, 2 woven, 0 already woven"), infos);
    }

    @Test
    void onlyTheMainClassesMayExist() throws Exception {
        Path main = file(classes, "app/Main.class", "pause");
        mojo.execute();
        assertEquals("WOVEN pause", Files.readString(main, StandardCharsets.UTF_8));
    }

    @Test
    void theEngineSeesBothOutputDirectories() throws Exception {
        file(classes, "app/Main.class", "pause");
        file(testClasses, "app/MainTest.class", "plain");
        List<String> found = new ArrayList<>();
        mojo.engine = cp -> new ClassTransform() {
            @Override
            public boolean isWoven(byte[] classFile) {
                return false;
            }

            @Override
            public byte[] weave(byte[] classFile) {
                found.add(new String(cp.find("app/Main"), StandardCharsets.UTF_8));
                found.add(new String(cp.find("app/MainTest"), StandardCharsets.UTF_8));
                return classFile;
            }
        };
        mojo.execute();
        assertEquals(List.of("pause", "plain"), found.subList(0, 2));
    }

    @Test
    void everyErrorIsLoggedThenTheBuildFailsWithTheCount() throws IOException {
        Path bad = file(classes, "com/acme/Bad.class", "boom");
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
        assertTrue(e.getMessage().contains("2 errors"), e.getMessage());
        assertEquals(List.of("com/acme/Bad.java:42: pausable call inside synchronized",
                "com/acme/Bad.java:57: pausable call in a constructor"), errors);
        assertEquals("boom", Files.readString(bad, StandardCharsets.UTF_8));
    }

    @Test
    void skipWeavesNothing() throws Exception {
        Path main = file(classes, "app/Main.class", "pause");
        set("skip", true);
        mojo.execute();
        assertEquals("pause", Files.readString(main, StandardCharsets.UTF_8));
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void aProjectWithoutClassesIsFine() throws Exception {
        mojo.execute();
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void theRealEngineLeavesAClassWithoutPausableCodeAlone() throws Exception {
        byte[] trivial;
        try (InputStream in = Trivial.class.getResourceAsStream("Trivial.class")) {
            trivial = in.readAllBytes();
        }
        Path f = classes.resolve("dev/weft/maven/Trivial.class");
        Files.createDirectories(f.getParent());
        Files.write(f, trivial);
        WeaveMojo real = new WeaveMojo();
        for (String name : List.of("project", "classesDirectory", "testClassesDirectory")) {
            Field fld = AbstractWeaveMojo.class.getDeclaredField(name);
            fld.setAccessible(true);
            fld.set(real, fld.get(mojo));
        }
        real.setLog(mojo.getLog());
        real.execute();
        assertArrayEquals(trivial, Files.readAllBytes(f));
    }
}
