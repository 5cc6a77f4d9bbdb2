package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.Weaver;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * csp-core's own classes, as the Maven goal wove them in place, pass ASM's verifier and link in a fresh
 * class loader (HotSpot verifies them then); so do its woven test classes. The checks themselves are shown to
 * catch bad bytecode. (The class files woven by the other tests of this package are checked there.)
 */
@Timeout(120)
class WovenBytecodeVerifiesTest {
    @TempDir
    Path dir;

    @Test
    void cspCoresOwnClassesVerifyAndLinkInAFreshLoader() throws Exception {
        Path core = ClassFiles.coreClasses();
        assertTrue(Files.isDirectory(core), "csp-core's classes are a directory here: " + core);
        Map<String, byte[]> classes = ClassFiles.read(core);
        long woven = classes.values().stream().filter(Weaver::isWoven).count();
        assertTrue(woven >= 5, "csp-core has woven classes (the Maven goal ran): " + woven);
        assertTrue(Weaver.isWoven(classes.get("dev/weft/csp/Fiber")));

        try (URLClassLoader fresh = new URLClassLoader(new URL[] {core.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            assertEquals(List.of(), BytecodeCheck.problems(classes, fresh));
        }
    }

    @Test
    void cspCoresWovenTestClassesVerifyAndLinkInAFreshLoader() throws Exception {
        Path testClasses = ClassFiles.locationOf(WovenBytecodeVerifiesTest.class);
        Map<String, byte[]> woven = new TreeMap<>();
        ClassFiles.read(testClasses).forEach((name, bytes) -> {
            if (Weaver.isWoven(bytes)) {
                woven.put(name, bytes);
            }
        });
        assertTrue(woven.containsKey("dev/weft/weaver/classfiles/SubroutineTest"),
                "this package's own tests are woven (their lambdas are CSProcesses): " + woven.keySet());

        try (URLClassLoader fresh = new URLClassLoader(testClasspath(), ClassLoader.getPlatformClassLoader())) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, fresh));
        }
    }

    @Test
    void theChecksCatchBytecodeTheVerifierRejects() throws Exception {
        byte[] bad = classReturningAnIntAsAnObject();
        ClassFiles.write(dir, Map.of("bad/Bad", bad));

        try (URLClassLoader loader = ClassFiles.loader(dir)) {
            assertFalse(BytecodeCheck.asmReport(bad, loader).isBlank(), "ASM's verifier reports it");
            assertThrows(VerifyError.class, () -> BytecodeCheck.link("bad.Bad", loader), "linking verifies it");
            assertEquals(2, BytecodeCheck.problems(Map.of("bad/Bad", bad), loader).size(),
                    "ASM's verifier and the linker both report it");
        }
    }

    /** {@code static Object get() { return 1; }} without boxing: iconst_1, areturn. */
    private static byte[] classReturningAnIntAsAnObject() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "bad/Bad", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "get", "()Ljava/lang/Object;", null, null);
        mv.visitCode();
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.ARETURN);
        mv.visitMaxs(1, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** The test classpath (Surefire may pass it in a manifest-only jar, which URLClassLoader follows). */
    private static URL[] testClasspath() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls.toArray(new URL[0]);
    }
}
