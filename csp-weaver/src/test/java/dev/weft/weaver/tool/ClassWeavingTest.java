package dev.weft.weaver.tool;

import static dev.weft.weaver.tool.FakeEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.tool.ClassWeaving.Kind;
import org.junit.jupiter.api.Test;

class ClassWeavingTest {
    private final FakeEngine engine = new FakeEngine();
    private final ClassWeaving weaving = new ClassWeaving(engine);

    @Test
    void wovenClassesCarryTheNewBytes() {
        ClassWeaving.Result r = weaving.weave("a/A.class", bytes("pause"));
        assertEquals(Kind.WOVEN, r.kind());
        assertArrayEquals(bytes("WOVEN pause"), r.classFile());
    }

    @Test
    void unchangedClassesKeepTheirArray() {
        byte[] plain = bytes("plain");
        ClassWeaving.Result r = weaving.weave("a/A.class", plain);
        assertEquals(Kind.UNCHANGED, r.kind());
        assertSame(plain, r.classFile());
    }

    @Test
    void alreadyWovenClassesAreNotWovenAgain() {
        assertEquals(Kind.ALREADY_WOVEN, weaving.weave("a/A.class", bytes("WOVEN pause")).kind());
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void descriptorsAreNeverGivenToTheEngine() {
        assertEquals(Kind.UNCHANGED, weaving.weave("module-info.class", bytes("pause")).kind());
        assertEquals(Kind.UNCHANGED, weaving.weave("a/package-info.class", bytes("pause")).kind());
        assertEquals(0, engine.weaveCalls.get());
    }

    @Test
    void errorsAreLocatedInThePackage() {
        ClassWeaving.Result r = weaving.weave("com/acme/Bad.class", bytes("boom"));
        assertEquals(Kind.FAILED, r.kind());
        assertEquals("com/acme/Bad.java:42: pausable call inside synchronized", r.errors().get(0).toString());
        assertEquals(2, r.errors().size());
    }

    @Test
    void engineFailuresNameTheClassFile() {
        ClassWeaving broken = new ClassWeaving(new ClassTransform() {
            @Override
            public boolean isWoven(byte[] classFile) {
                return false;
            }

            @Override
            public byte[] weave(byte[] classFile) {
                throw new IllegalArgumentException("bad constant pool");
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> broken.weave("com/acme/X.class", bytes("x")));
        assertTrue(e.getMessage().contains("com/acme/X.class"), e.getMessage());
        assertTrue(e.getMessage().contains("bad constant pool"), e.getMessage());
    }
}
