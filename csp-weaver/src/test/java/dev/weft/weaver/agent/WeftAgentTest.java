package dev.weft.weaver.agent;

import static dev.weft.weaver.agent.AsmClasses.MARKER;
import static dev.weft.weaver.agent.AsmClasses.classWith;
import static dev.weft.weaver.agent.AsmClasses.hasField;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.tool.ClassTransform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent's transformer, driven as the JVM drives it, over real class files and a stand-in engine. */
class WeftAgentTest {
    private final AsmClasses.Engine engine = new AsmClasses.Engine();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final ClassFileTransformer agent = WeavingTransformer.create(loader -> engine,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    private final ClassLoader loader = new ClassLoader(getClass().getClassLoader()) { };

    private byte[] load(String name, byte[] classFile) throws IllegalClassFormatException {
        return agent.transform(getClass().getModule(), loader, name, null, null, classFile);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Defines {@code classFile} in a fresh loader, so that the JVM verifies it. */
    private static Class<?> define(String binaryName, byte[] classFile) {
        return new ClassLoader(WeftAgentTest.class.getClassLoader()) {
            Class<?> define() {
                return defineClass(binaryName, classFile, 0, classFile.length);
            }
        }.define();
    }

    @Test
    void wovenClassesAreReplacedByWhatTheEngineMade() throws Exception {
        byte[] original = classWith("com/acme/Worker", "pauseHere", "other");
        byte[] woven = load("com/acme/Worker", original);

        assertNotNull(woven);
        assertTrue(hasField(woven, MARKER));
        Class<?> c = define("com.acme.Worker", woven);
        assertEquals(7, c.getMethod("pauseHere").invoke(null));
        assertEquals(7, c.getMethod("other").invoke(null));
        assertEquals(42, c.getMethod("$weftExtra").invoke(null));
        assertEquals("", err());
    }

    @Test
    void theEngineGetsTheBytesTheJvmHandedOver() throws Exception {
        byte[] original = classWith("com/acme/Worker", "pauseHere");
        load("com/acme/Worker", original);
        assertEquals(1, engine.given.size());
        assertArrayEquals(original, engine.given.get(0));
    }

    @Test
    void whatAnEarlierAgentAddedIsKept() throws Exception {
        // An agent before this one (JaCoCo, say) already rewrote the class: its change must survive weaving.
        byte[] instrumented = AsmClasses.withField(classWith("com/acme/Worker", "pauseHere"), "$jacocoData");
        byte[] woven = load("com/acme/Worker", instrumented);
        assertTrue(hasField(woven, "$jacocoData"));
        assertTrue(hasField(woven, MARKER));
    }

    @Test
    void classesTheEngineLeavesUnchangedAreLeftAlone() throws Exception {
        assertNull(load("com/acme/Plain", classWith("com/acme/Plain", "compute")));
        assertEquals(1, engine.weaveCalls.get());
    }

    @Test
    void classesAlreadyWovenAreNotGivenToTheEngine() throws Exception {
        byte[] woven = engine.weave(classWith("com/acme/Worker", "pauseHere"));
        engine.weaveCalls.set(0);
        assertNull(load("com/acme/Worker", woven));
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void jdkAndWeaverClassesAreNeverGivenToTheEngine() throws Exception {
        assertNull(load("java/util/Pause", classWith("java/util/Pause", "pauseHere")));
        assertNull(load("dev/weft/weaver/X", classWith("dev/weft/weaver/X", "pauseHere")));
        assertNull(agent.transform(null, "com/acme/Boot", null, null, classWith("com/acme/Boot", "pauseHere")));
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void aClassLoadedUnwovenIsNotWovenWhenRetransformed() throws Exception {
        byte[] b = classWith("com/acme/Worker", "pauseHere");
        assertNull(agent.transform(getClass().getModule(), loader, "com/acme/Worker", String.class, null, b));
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void aClassWovenAsItLoadedIsWovenAgainWhenRetransformed() throws Exception {
        byte[] b = classWith("com/acme/Worker", "pauseHere");
        byte[] atLoad = load("com/acme/Worker", b);
        assertNotNull(atLoad);
        // Retransformation hands over the class file as it was before this transformer (the original).
        byte[] again = agent.transform(getClass().getModule(), loader, "com/acme/Worker", String.class, null, b);
        assertArrayEquals(atLoad, again);
        assertEquals(2, engine.weaveCalls.get());
    }

    @Test
    void weaveErrorsArePrintedAndTheClassIsLeftUnwoven() throws Exception {
        assertNull(load("com/acme/Bad", classWith("com/acme/Bad", "boom", "pauseToo")));
        assertEquals(List.of("weft agent: com/acme/Bad.java:42: pausable call inside synchronized",
                "weft agent: com/acme/Bad.java:43: second problem"), err().lines().toList());
    }

    @Test
    void anEngineFailureIsPrintedAndTheClassIsLeftUnwoven() throws Exception {
        ClassFileTransformer broken = WeavingTransformer.create(l -> new ClassTransform() {
            @Override
            public boolean isWoven(byte[] classFile) {
                return false;
            }

            @Override
            public byte[] weave(byte[] classFile) {
                throw new IllegalStateException("engine bug");
            }
        }, new PrintStream(err, true, StandardCharsets.UTF_8));
        byte[] b = classWith("com/acme/Worker", "pauseHere");
        assertNull(broken.transform(getClass().getModule(), loader, "com/acme/Worker", null, null, b));
        assertTrue(err().startsWith("weft agent: cannot weave com.acme.Worker, left unwoven:"), err());
        assertTrue(err().contains("engine bug"), err());
        assertEquals(1, err().lines().filter(l -> l.startsWith("weft agent:")).count(), err());
    }

    @Test
    void theLegacyTransformMethodWeavesToo() throws Exception {
        byte[] woven = agent.transform(loader, "com/acme/Worker", null, null, classWith("com/acme/Worker", "pauseHere"));
        assertTrue(hasField(woven, MARKER));
    }
}
