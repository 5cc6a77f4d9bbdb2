package dev.weft.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program that is a module of its own ({@code requires dev.weft.csp}) compiles against csp-core's jar on the
 * module path, is woven by the command line, and runs on the module path.
 */
@Timeout(120)
class ModulePathTest {
    /** The jar's {@code Automatic-Module-Name} (the build sets it from {@code weft.module.name}). */
    private static final String CORE_MODULE = "dev.weft.csp";

    @TempDir
    Path dir;

    @Test
    void aModularProgramCompilesWeavesAndRunsOnTheModulePath() throws Exception {
        Path core = coreJar();
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("demo"));
        Files.writeString(src.resolve("module-info.java"), "module demo { requires " + CORE_MODULE + "; }\n");
        Files.writeString(src.resolve("demo/Sum.java"), DemoPrograms.SUM);
        Path classes = dir.resolve("classes");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter messages = new StringWriter();
        boolean ok = javac.getTask(messages, null, null,
                List.of("--release", "17", "--module-path", core.toString(), "-d", classes.toString()), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(
                        src.resolve("module-info.java").toFile(), src.resolve("demo/Sum.java").toFile())).call();
        assertTrue(ok, "the modular program compiles against the jar on the module path:\n" + messages);

        Path woven = dir.resolve("woven");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WeaveCli.run(new String[] {"-cp", core.toString(), classes.toString(), "-d", woven.toString()},
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.exists(woven.resolve("module-info.class")), "the module descriptor is kept");

        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60),
                List.of("--module-path", core + java.io.File.pathSeparator + woven, "-m", "demo/demo.Sum"));
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(DemoPrograms.SUM_OUTPUT, r.lines(), r.toString());
    }

    /** csp-core's classes in a jar with the manifest the build gives it. */
    private Path coreJar() throws IOException {
        Path classes = DemoPrograms.coreClasses();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Automatic-Module-Name"), CORE_MODULE);
        Path jar = dir.resolve("csp-core.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }
}
