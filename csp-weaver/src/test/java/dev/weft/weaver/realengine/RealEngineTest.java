package dev.weft.weaver.realengine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.Weaver;
import dev.weft.weaver.agent.WeftAgentAccess;
import dev.weft.weaver.cli.WeaveCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.instrument.ClassFileTransformer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;

/** The command line and the agent with the real engine, on classes javac wrote. */
class RealEngineTest {
    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int cli(String... args) {
        return WeaveCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void theCommandLineWeavesPausableClassesAndCopiesTheOthers() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of());
        Path woven = dir.resolve("woven");

        assertEquals(0, cli(classes.toString(), "-d", woven.toString()), err.toString(StandardCharsets.UTF_8));

        byte[] worker = Files.readAllBytes(woven.resolve("app/Worker.class"));
        assertTrue(Weaver.isWoven(worker));
        assertFalse(Weaver.isWoven(Files.readAllBytes(classes.resolve("app/Worker.class"))));
        assertArrayEquals(Files.readAllBytes(classes.resolve("app/Plain.class")),
                Files.readAllBytes(woven.resolve("app/Plain.class")));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("3 classes, 1 woven"), out.toString());
    }

    @Test
    void weavingTheOutputAgainChangesNothing() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of());
        Path once = dir.resolve("once");
        Path twice = dir.resolve("twice");
        assertEquals(0, cli(classes.toString(), "-d", once.toString()));
        assertEquals(0, cli(once.toString(), "-d", twice.toString()));
        assertArrayEquals(Files.readAllBytes(once.resolve("app/Worker.class")),
                Files.readAllBytes(twice.resolve("app/Worker.class")));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("0 woven (1 already woven)"), out.toString());
    }

    @Test
    void classesWovenInTheOtherModeAreRefusedNotKept() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of());
        Path once = dir.resolve("once");
        assertEquals(0, cli(classes.toString(), "-d", once.toString()));

        assertEquals(1, cli("--preemptive", once.toString(), "-d", dir.resolve("twice").toString()));

        String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.startsWith("app/Worker.java:0: Worker was woven with preemptive=false but this weave"
                + " asks preemptive=true"), errors);
    }

    /** A class woven by another csp-weaver calls a runtime ABI this one does not write: refused, not kept. */
    @Test
    void classesWovenForAnotherAbiAreRefusedNotKept() throws Exception {
        assertRefusedWhenMarked("Ldev/weft/csp/abi/Woven;", Weaver.ABI_VERSION - 1);
    }

    /** Versions 1 to 5 put their marker in the runtime's package: still recognised, and refused the same way. */
    @Test
    void classesWovenBeforeTheAbiHadAPackageAreRefusedNotKept() throws Exception {
        assertRefusedWhenMarked("Ldev/weft/csp/runtime/Woven;", 5);
    }

    private void assertRefusedWhenMarked(String markerDesc, int abi) throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of());
        Path once = dir.resolve("once");
        assertEquals(0, cli(classes.toString(), "-d", once.toString()));
        Path worker = once.resolve("app/Worker.class");
        ClassNode cn = new ClassNode();
        new ClassReader(Files.readAllBytes(worker)).accept(cn, 0);
        AnnotationNode marker = cn.invisibleAnnotations.stream()
                .filter(a -> a.desc.equals("Ldev/weft/csp/abi/Woven;")).findFirst().orElseThrow();
        marker.desc = markerDesc;
        marker.values.set(marker.values.indexOf("abi") + 1, abi);
        ClassWriter cw = new ClassWriter(0);
        cn.accept(cw);
        Files.write(worker, cw.toByteArray());

        assertEquals(1, cli(once.toString(), "-d", dir.resolve("twice").toString()));

        String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.startsWith("app/Worker.java:0: Worker was woven for ABI version " + abi
                + " of the runtime (another csp-weaver) but this weave writes version " + Weaver.ABI_VERSION
                + "; woven code cannot be woven again"), errors);
    }

    @Test
    void javacCompilesLambdasAndImplementationsAgainstAWovenInterface() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of("app/Step.java", """
                package app;

                public interface Step {
                    @dev.weft.csp.Pausable
                    int apply(int x);
                }
                """));
        Path woven = dir.resolve("woven");
        assertEquals(0, cli(classes.toString(), "-d", woven.toString()), err.toString(StandardCharsets.UTF_8));
        Path user = Files.createDirectories(dir.resolve("user")).resolve("User.java");
        Files.writeString(user, """
                public class User implements app.Step {
                    static final app.Step INC = x -> x + 1;

                    public int apply(int x) {
                        return INC.apply(x);
                    }
                }
                """);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter messages = new StringWriter();
        boolean ok = javac.getTask(messages, null, null, List.of("--release", "17", "-cp", woven.toString(), "-d",
                dir.resolve("user").toString()), null, javac.getStandardFileManager(null, null, null)
                .getJavaFileObjects(user)).call();
        assertTrue(ok, messages.toString());
    }

    @Test
    void theCommandLineReportsWhereThePauseIsRefused() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of("app/Bad.java", SmallProgram.BAD));
        assertEquals(1, cli(classes.toString(), "-d", dir.resolve("woven").toString()));
        String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.startsWith("app/Bad.java:" + SmallProgram.BAD_LINE + ": "), errors);
    }

    @Test
    void aClassFileTooNewForTheWeaverIsAWeaveErrorNamingTheFile() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of());
        Path plain = classes.resolve("app/Plain.class");
        byte[] b = Files.readAllBytes(plain);
        b[6] = 0;
        b[7] = 99; // major version 99, far beyond any ASM
        Files.write(plain, b);

        assertEquals(1, cli(classes.toString(), "-d", dir.resolve("woven").toString()));

        String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.startsWith("app/Plain.class:0: ") && errors.contains("upgrade csp-weaver"), errors);
    }

    @Test
    void theAgentWeavesThroughTheClassLoadersResources() throws Exception {
        Path classes = SmallProgram.compile(dir, Map.of());
        ClassFileTransformer agent = WeftAgentAccess.transformer(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            byte[] worker = Files.readAllBytes(classes.resolve("app/Worker.class"));
            byte[] woven = agent.transform(loader, "app/Worker", null, null, worker);
            assertTrue(woven != null && Weaver.isWoven(woven));
            byte[] plain = Files.readAllBytes(classes.resolve("app/Plain.class"));
            assertNull(agent.transform(loader, "app/Plain", null, null, plain));
            assertNull(agent.transform(loader, "app/Worker", null, null, woven), "woven classes are left alone");
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }
}
